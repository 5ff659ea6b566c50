package io.looplab.virtualthreads;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Outcome;
import io.looplab.grader.Points;
import io.looplab.grader.races.scene.Answer;
import io.looplab.grader.races.scene.Pace;
import io.looplab.grader.sync.Gate;
import io.looplab.grader.testkit.WarmUp;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.looplab.grader.testkit.Checks.require;
import static io.looplab.virtualthreads.AvailabilityServiceDown.OUTAGE;

/**
 * Grades SeatCounter with one reservation at a time, on a virtual thread: it waits for its availability check, a yes
 * takes a seat, a no takes none, a failed check reaches the caller as its error, a sold-out show answers false. The
 * check is a gated dependency ({@link ShowScene}): each call waits until this test answers it. Nothing here depends
 * on timing.
 */
@GradedVertxTest
@Order(1)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@DisplayName("14 Virtual threads: one reservation at a time")
class OneReservationAtATimeTest {

  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(SceneWarmUp::steps);
  }

  @Test
  @Order(1)
  @Points(2)
  @DisplayName("one reservation at a time: it awaits the check; a yes takes one seat, a no takes none, a failed check "
      + "is thrown to the caller, and a sold-out show answers false, whatever its check would say")
  void oneReservationAtATime() {
    try (ShowScene scene = new ShowScene(3)) {
      scene.reserve("ada");
      Gate<Boolean> ada = scene.awaitCheck(1, "ada");
      require(!scene.hasAnswered("ada"), "ada's reservation answered " + scene.outcome("ada") + " while her "
          + "availability check was still in flight. A reservation must wait for the check's answer: "
          + "check(who).await().");
      scene.release(ada, Answer.YES);
      scene.assertAnswer("ada", Outcome.of(true), "her check said yes and 3 seats were free");
      scene.assertFreeSeats(2, "one reservation of 3 seats, with the check saying yes");

      scene.reserve("bob");
      scene.release(scene.awaitCheck(2, "bob"), Answer.NO);
      scene.assertAnswer("bob", Outcome.of(false), "his check said no");
      scene.assertFreeSeats(2, "bob's check said no, so his reservation must not take a seat");

      scene.reserve("mallory");
      scene.release(scene.awaitCheck(3, "mallory"), Answer.FAIL);
      Outcome<Boolean> mallory = scene.outcome("mallory");
      require(mallory.error() != null && AvailabilityServiceDown.causedBy(mallory.error(), OUTAGE), "mallory's "
          + "availability check failed (" + OUTAGE + "), so reserve(\"mallory\") should throw that error, but it "
          + "answered " + mallory + ". await() throws the failure of the future it waits for: let it reach the "
          + "caller, so that the box office can answer 503 and she can try again.");
      scene.assertFreeSeats(2, "mallory's check failed, so her reservation must not take a seat");
    }
    try (ShowScene soldOut = new ShowScene(0)) {
      // Sold out is decided by the count: whatever the check would say (cyd's fails, dora's throws), the answer is
      // false. A reservation that asks anyway and passes the check's error on tells a sold-out caller "try again".
      soldOut.throwFor("dora");
      for (String who : List.of("cyd", "dora")) {
        soldOut.reserve(who);
        soldOut.driveToTheEnd(List.of(who), Map.of(who, Answer.FAIL), Pace.ONE_AT_A_TIME);
        soldOut.assertSoldOutAnswer(who);
      }
      soldOut.assertFreeSeats(0, "a show with no free seat");
    }
  }
}
