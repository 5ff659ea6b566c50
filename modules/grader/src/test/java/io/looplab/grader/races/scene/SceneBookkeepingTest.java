package io.looplab.grader.races.scene;

import io.looplab.grader.Outcome;
import io.looplab.grader.sync.Gate;
import io.looplab.grader.sync.GatedDependency;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** What a seat scene keeps and says, apart from any exercise: callers and answers, check calls, release orders. */
class SceneBookkeepingTest {

  private record Call(String who, int count, String site) implements CheckCalls.Call {
  }

  @Test
  @DisplayName("callers are listed in the order they asked, with their answers, the sales and who is still waiting")
  void callersAndTheirAnswers() {
    Callers callers = new Callers();
    callers.asked(List.of("ada", "bob"));
    callers.asked(List.of("cyd"));
    callers.heard("cyd", Outcome.of(true));
    callers.heard("ada", Outcome.of(false));
    assertEquals("ada false, bob no answer yet, cyd true", callers.answers());
    assertEquals(List.of("bob"), callers.unanswered());
    assertEquals(Outcome.none(), callers.outcome("bob"));
    callers.heard("bob", Outcome.of(true));
    assertEquals("bob, cyd", callers.soldTo());
    assertEquals(2, callers.sold());
    assertEquals(3, callers.count());
  }

  @Test
  @DisplayName("check calls give the count at each call and each place in the learner's code once, in order")
  void checkCallsInWords() {
    CheckCalls<Call> calls = new CheckCalls<>();
    assertEquals("", calls.inCode());
    calls.add(new Call("ada", 10, "reserve() at SeatCounter.java:41"));
    calls.add(new Call("bob", 10, null));
    calls.add(new Call("ada", 9, "reserve() at SeatCounter.java:41"));
    calls.add(new Call("cyd", 8, "a lambda in start() at SeatCounter.java:50"));
    assertEquals("ada's, called when the count was 10; bob's, called when the count was 10; ada's, called when "
        + "the count was 9; cyd's, called when the count was 8", calls.countsInWords());
    assertEquals(" (your code called the availability check from reserve() at SeatCounter.java:41 and a lambda in "
        + "start() at SeatCounter.java:50)", calls.inCode());
    assertEquals(10, calls.firstFor("ada").count());
    assertNull(calls.firstFor("dan"));
  }

  @Test
  @DisplayName("every release order is a test at each pace, named as learners read it")
  void releaseOrdersNameTheirTests() {
    List<String> names = ReleaseOrders.racing(2, (order, pace) -> { }).map(DynamicTest::getDisplayName).toList();
    assertEquals(List.of("release order #1 then #2, all checks in flight answered in one go",
        "release order #2 then #1, all checks in flight answered in one go",
        "release order #1 then #2, each answer finished before the next",
        "release order #2 then #1, each answer finished before the next"), names);
    assertEquals(List.of("cyd", "ada", "bob"),
        ReleaseOrders.priority(List.of("ada", "bob", "cyd"), new int[] {2, 0, 1}));
  }

  @Test
  @DisplayName("the checks answered next follow the priority, all together or the first alone, strangers last")
  void nextToAnswerFollowsThePriority() {
    GatedDependency<String, Boolean> check = new GatedDependency<>();
    for (String who : List.of("dan", "ada", "bob")) {
      check.apply(who);
    }
    List<Gate<Boolean>> pending = check.calledSoFar();
    List<String> priority = List.of("bob", "ada");
    assertEquals(List.of("bob", "ada", "dan"), arguments(ReleaseOrders.nextToAnswer(pending, priority, Pace.TOGETHER)));
    assertEquals(List.of("bob"), arguments(ReleaseOrders.nextToAnswer(pending, priority, Pace.ONE_AT_A_TIME)));
    assertEquals(List.of(), ReleaseOrders.nextToAnswer(List.of(), priority, Pace.ONE_AT_A_TIME));
  }

  @Test
  @DisplayName("each answer names the test's step in the words a message quotes after 'after the test'")
  void answersInWords() {
    assertEquals("answered ada's check with yes", Answer.YES.stepInWords("ada"));
    assertEquals("answered ada's check with no", Answer.NO.stepInWords("ada"));
    assertEquals("failed ada's check", Answer.FAIL.stepInWords("ada"));
  }

  private static List<String> arguments(List<Gate<Boolean>> gates) {
    List<String> arguments = new ArrayList<>();
    gates.forEach(gate -> arguments.add(String.valueOf(gate.argument())));
    return arguments;
  }
}
