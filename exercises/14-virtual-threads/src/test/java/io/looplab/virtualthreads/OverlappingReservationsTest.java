package io.looplab.virtualthreads;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Outcome;
import io.looplab.grader.Points;
import io.looplab.grader.races.scene.Answer;
import io.looplab.grader.testkit.WarmUp;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.TestFactory;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static io.looplab.grader.races.scene.ReleaseOrders.priority;
import static io.looplab.grader.races.scene.ReleaseOrders.racing;
import static io.looplab.grader.testkit.Checks.require;
import static io.looplab.virtualthreads.AvailabilityServiceDown.OUTAGE;

/**
 * Grades SeatCounter by what overlapping reservations on one virtual-thread context answer and what the count ends
 * at. Each reservation is a task on a virtual thread of its own; the availability check is a gated dependency
 * ({@link ShowScene}), so the test decides which check answers first, and tries every order, twice: every check in
 * flight answered in one go (all the suspended reservations resume before any of them is answered again), and one at
 * a time (each answer, and all it starts, finishes before the next). Nothing here depends on timing.
 */
@GradedVertxTest
@Order(2)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@DisplayName("14 Virtual threads: overlapping reservations, every order of answers")
class OverlappingReservationsTest {

  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(SceneWarmUp::steps);
  }

  @TestFactory
  @Order(2)
  @Points(5)
  @DisplayName("two overlapping reservations (#1 ada, #2 bob) both take a seat: 10 free seats become 8, whichever "
      + "check answers first")
  Stream<DynamicTest> overlappingReservationsLoseNoUpdate() {
    List<String> callers = List.of("ada", "bob");
    return racing(callers.size(), (order, pace) -> {
      try (ShowScene scene = new ShowScene(10)) {
        scene.reserveTogether(callers);
        scene.driveToTheEnd(priority(callers, order), Map.of("ada", Answer.YES, "bob", Answer.YES), pace);

        scene.assertAnswer("ada", Outcome.of(true), "her check said yes and seats were free");
        scene.assertAnswer("bob", Outcome.of(true), "his check said yes and seats were free");
        scene.evidence.assertNoUpdateLost();
        scene.assertFreeSeats(8, "two reservations of 10 seats, both told yes");
      }
    });
  }

  @TestFactory
  @Order(3)
  @Points(4)
  @DisplayName("three overlapping reservations (#1 ada, #2 bob, #3 cyd) for the last 2 seats: exactly two get one, the "
      + "third hears sold out, whichever check answers first")
  Stream<DynamicTest> lastSeatsAreSoldOnlyOnce() {
    List<String> callers = List.of("ada", "bob", "cyd");
    return racing(callers.size(), (order, pace) -> {
      try (ShowScene scene = new ShowScene(2)) {
        scene.reserveTogether(callers);
        scene.driveToTheEnd(priority(callers, order), Map.of("ada", Answer.YES, "bob", Answer.YES, "cyd",
            Answer.YES), pace);

        scene.evidence.assertNotOversold();
        for (String who : callers) {
          Outcome<Boolean> outcome = scene.outcome(who);
          require(outcome.error() == null, who + "'s reservation failed with " + outcome + ", but every check said "
              + "yes. Sold out is an answer, false, not an error.");
        }
        scene.evidence.assertNoUpdateLost();
        require(scene.sold() == 2, "Only " + scene.sold() + " of the 2 seats were sold to 3 callers whose checks "
            + "all said yes: " + scene.answers() + ". Nobody may hear sold out while a seat is still free.");
        scene.assertFreeSeats(0, "2 seats, sold to 2 of 3 callers");
      }
    });
  }

  @TestFactory
  @Order(4)
  @Points(4)
  @DisplayName("when one check fails among three overlapping reservations (#1 ada, #2 mallory, #3 bob), mallory hears "
      + "the error and takes no seat, and the others still get theirs, whichever check answers first")
  Stream<DynamicTest> failedCheckFailsOnlyItsReservation() {
    List<String> callers = List.of("ada", "mallory", "bob");
    return racing(callers.size(), (order, pace) -> {
      try (ShowScene scene = new ShowScene(10)) {
        scene.reserveTogether(callers);
        scene.driveToTheEnd(priority(callers, order),
            Map.of("ada", Answer.YES, "mallory", Answer.FAIL, "bob", Answer.YES), pace);

        Outcome<Boolean> mallory = scene.outcome("mallory");
        require(mallory.error() != null && AvailabilityServiceDown.causedBy(mallory.error(), OUTAGE), "mallory's "
            + "availability check failed (" + OUTAGE + "), but her reservation answered " + mallory + ". The caller "
            + "must hear the check's own error: let the exception that await() throws reach the caller.");
        scene.assertAnswer("ada", Outcome.of(true), "her check said yes and seats were free");
        scene.assertAnswer("bob", Outcome.of(true), "his check said yes and seats were free");
        scene.evidence.assertNoUpdateLost();
        scene.assertFreeSeats(8, "ada and bob got seats, mallory's check failed");
      }
    });
  }
}
