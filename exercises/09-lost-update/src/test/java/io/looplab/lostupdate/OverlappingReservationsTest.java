package io.looplab.lostupdate;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Outcome;
import io.looplab.grader.Points;
import io.looplab.grader.races.scene.Answer;
import io.looplab.grader.testkit.WarmUp;
import io.vertx.core.Vertx;
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
import static io.looplab.lostupdate.AvailabilityServiceDown.OUTAGE;

/**
 * Grades SeatCounter by what overlapping reservations answer and what the count ends at. The availability check is
 * a gated dependency ({@link ShowScene}): each call waits until this test answers it, so the test itself decides
 * which check answers first, and tries every order, twice: once with every check that is in flight answered in one
 * go (one event-loop task, so that each reservation's continuation has read the count before any of them writes),
 * and once one at a time (each answer, and all it starts, finishes before the next). Every name is decoded afresh
 * for each request, as a real request's would be. Nothing here depends on timing.
 */
@GradedVertxTest
@Order(2)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@DisplayName("09 Lost update: overlapping reservations, every order of answers")
class OverlappingReservationsTest {

  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(SceneWarmUp::steps);
  }

  @TestFactory
  @Order(2)
  @Points(6)
  @DisplayName("two overlapping reservations (#1 ada, #2 bob) both take a seat: 10 free seats become 8, whichever "
      + "check answers first")
  Stream<DynamicTest> overlappingReservationsLoseNoUpdate(Vertx vertx) {
    List<String> callers = List.of("ada", "bob");
    return racing(callers.size(), (order, pace) -> {
      ShowScene scene = new ShowScene(vertx, 10);
      scene.reserveTogether(callers);
      scene.driveToTheEnd(priority(callers, order), Map.of("ada", Answer.YES, "bob", Answer.YES), pace);

      scene.assertAnswer("ada", Outcome.of(true), "her check said yes and seats were free");
      scene.assertAnswer("bob", Outcome.of(true), "his check said yes and seats were free");
      scene.assertNoUpdateLost();
      scene.assertFreeSeats(8, "two reservations of 10 seats, both told yes");
    });
  }

  @TestFactory
  @Order(3)
  @Points(5)
  @DisplayName("three overlapping reservations (#1 ada, #2 bob, #3 cyd) for the last 2 seats: exactly two get one, the "
      + "third hears sold out, whichever check answers first")
  Stream<DynamicTest> lastSeatsAreSoldOnlyOnce(Vertx vertx) {
    List<String> callers = List.of("ada", "bob", "cyd");
    return racing(callers.size(), (order, pace) -> {
      ShowScene scene = new ShowScene(vertx, 2);
      scene.reserveTogether(callers);
      scene.driveToTheEnd(priority(callers, order), Map.of("ada", Answer.YES, "bob", Answer.YES, "cyd", Answer.YES),
          pace);

      scene.assertNotOversold();
      for (String who : callers) {
        Outcome<Boolean> outcome = scene.outcome(who);
        require(outcome.error() == null, who + "'s reservation failed with " + outcome + ", but every check said "
            + "yes. Sold out is an answer, false, not an error.");
      }
      scene.assertNoUpdateLost();
      require(scene.sold() == 2, "Only " + scene.sold() + " of the 2 seats were sold to 3 callers whose checks all "
          + "said yes: " + scene.answers() + ". Nobody may hear sold out while a seat is still free.");
      scene.assertFreeSeats(0, "2 seats, sold to 2 of 3 callers");
    });
  }

  @TestFactory
  @Order(4)
  @Points(4)
  @DisplayName("when one check fails among three overlapping reservations (#1 ada, #2 mallory, #3 bob), mallory hears "
      + "the error and takes no seat, and the others still get theirs, whichever check answers first")
  Stream<DynamicTest> failedCheckFailsOnlyItsReservation(Vertx vertx) {
    List<String> callers = List.of("ada", "mallory", "bob");
    return racing(callers.size(), (order, pace) -> {
      ShowScene scene = new ShowScene(vertx, 10);
      scene.reserveTogether(callers);
      scene.driveToTheEnd(priority(callers, order),
          Map.of("ada", Answer.YES, "mallory", Answer.FAIL, "bob", Answer.YES), pace);

      Outcome<Boolean> mallory = scene.outcome("mallory");
      require(mallory.error() != null, "mallory's availability check failed (" + OUTAGE + "), but her reservation "
          + "answered " + mallory + ". " + (Boolean.TRUE.equals(mallory.value())
          ? "A failed check must not give anyone a seat: treat the failure as a failure, not as a yes."
          : "That tells her \"no seat for you\", which is not what happened. The caller must hear the error: let the "
            + "check's failure fail the reservation's future, so that the box office can answer 503 and she can "
            + "try again."));
      require(causedByOutage(mallory.error()), "mallory's reservation failed, but with " + mallory.error()
          + " rather than the check's own error (" + AvailabilityServiceDown.class.getSimpleName() + ": " + OUTAGE
          + "). Pass the check's failure on, so that the caller learns what went wrong.");
      scene.assertAnswer("ada", Outcome.of(true), "her check said yes and seats were free");
      scene.assertAnswer("bob", Outcome.of(true), "his check said yes and seats were free");
      scene.assertNoUpdateLost();
      scene.assertFreeSeats(8, "ada and bob got seats, mallory's check failed");
    });
  }

  private static boolean causedByOutage(Throwable error) {
    return AvailabilityServiceDown.causedBy(error, OUTAGE);
  }
}
