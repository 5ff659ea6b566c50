package io.looplab.grader.races.scene;

import io.looplab.grader.Outcome;
import io.looplab.grader.sync.Gate;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The scene's own steps, with a counter of the test's own that needs no Vert.x: its checks are gates called from no
 * context, so a release completes them on the test's thread, and everything they start has run when it returns.
 */
class SeatSceneTest {

  /** A correct counter, made of one step: a check answered yes takes a seat while one is free. */
  private static final class Box extends SeatScene {
    private int free;
    /** Callers whose reservation never asks (a broken counter), to see the scene call them stuck. */
    private final List<String> silent = new ArrayList<>();

    Box(int seats) {
      super(seats);
      free = seats;
    }

    @Override
    protected void start(List<String> group) {
      for (String who : group) {
        if (!silent.contains(who)) {
          check.apply(who).onComplete(ar -> {
            boolean seat = ar.succeeded() && ar.result() && free > 0;
            free -= seat ? 1 : 0;
            heard(who, ar.succeeded() ? Outcome.of(seat) : Outcome.failed(ar.cause()));
          });
        }
      }
    }

    @Override
    protected void deliver(List<Gate<Boolean>> gates, Map<String, Answer> script) {
      List<Gate.Release> releases = new ArrayList<>();
      List<String> steps = new ArrayList<>();
      for (Gate<Boolean> gate : gates) {
        String who = String.valueOf(gate.argument());
        Answer answer = script.getOrDefault(who, Answer.YES);
        releases.add(answer.releasing(gate, () -> new IllegalStateException("outage")));
        steps.add(noteAnswered(who, answer));
      }
      Gate.releaseTogether(releases);
      stepTaken(steps);
    }

    @Override
    public void settle() {
      // everything a release starts has run when it returns
    }

    @Override
    public int freeSeats() {
      return free;
    }

    @Override
    protected AssertionError stuck(List<String> unanswered) {
      return new AssertionFailedError(unanswered + " stuck after the test " + lastStep());
    }

    @Override
    protected String unansweredBecause(String who) {
      return ". ";
    }

    @Override
    protected String inCode() {
      return "";
    }
  }

  @Test
  @DisplayName("driving to the end answers the checks in the priority's order, at either pace, as a message says")
  void drivesInPriorityOrder() {
    for (Pace pace : Pace.values()) {
      Box box = new Box(1);
      box.reserveTogether(List.of("ada", "bob", "cyd"));
      box.driveToTheEnd(List.of("cyd", "ada", "bob"), Map.of("ada", Answer.FAIL), pace);
      assertEquals("ada " + Outcome.failed(new IllegalStateException("outage")) + ", bob false, cyd true",
          box.answers(), pace.words());
      assertEquals("the test answered the checks in this order: cyd, then ada, then bob, " + pace.words(),
          box.answeringInWords());
      assertEquals("cyd", box.soldTo());
      box.assertFreeSeats(0, "one sale");
      box.tally().assertEachSaleOneSeat(box.answers(), box.answeringInWords(), () -> "", () -> "");
    }
  }

  @Test
  @DisplayName("a caller who never asks is called stuck once nothing has moved for the stuck time, after the last step")
  void callsASilentCallerStuck() {
    Box box = new Box(2);
    box.silent.add("bob");
    box.reserveTogether(List.of("ada", "bob"));
    AssertionError stuck = assertThrows(AssertionError.class,
        () -> box.driveToTheEnd(List.of("ada", "bob"), Map.of(), Pace.TOGETHER));
    assertEquals("[bob] stuck after the test answered ada's check with yes", stuck.getMessage());
  }

  @Test
  @DisplayName("an answer that is not the expected one is named with every answer and the count")
  void wrongAnswerInWords() {
    Box box = new Box(1);
    box.reserve("ada");
    AssertionError silent = assertThrows(AssertionError.class,
        () -> box.assertAnswer("ada", Outcome.of(true), "a seat was free"));
    assertEquals("ada's reservation has not answered, though a seat was free. Answer every reservation once its "
        + "check has answered.", silent.getMessage());
    box.driveToTheEnd(List.of("ada"), Map.of("ada", Answer.NO), Pace.ONE_AT_A_TIME);
    AssertionError wrong = assertThrows(AssertionError.class,
        () -> box.assertAnswer("ada", Outcome.of(true), "a seat was free"));
    assertEquals("ada's reservation should answer " + Outcome.of(true) + ", because a seat was free, but it "
        + "answered " + Outcome.of(false) + ". All answers: ada " + Outcome.of(false) + "; 1 of 1 seats free now.",
        wrong.getMessage());
  }
}
