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
import static io.looplab.virtualthreads.AvailabilityServiceDown.CLIENT_CLOSED;

/**
 * Grades how SeatCounter hands the turn on: after every way a reservation can end (a failed check, a no, a yes, a
 * check that throws, sold out), the reservation waiting behind it must reach its own check. A correct solution makes
 * that call at once; the one bounded wait, {@link ShowScene#STUCK_MILLIS}, proves that a broken one never does.
 */
@GradedVertxTest
@Order(3)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@DisplayName("14 Virtual threads: every way out of a reservation lets the next one in")
class NextReservationGoesAheadTest {

  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(SceneWarmUp::steps);
  }

  @Test
  @Order(5)
  @Points(4)
  @DisplayName("a failed check, a no, a yes, a check that throws and a sold-out answer each let the next waiting "
      + "reservation in: no lock leak")
  void everyPathLetsTheNextReservationIn() {
    try (ShowScene scene = new ShowScene(3)) {
      // Each step: one reservation's check is in flight and the next caller is already waiting. The test answers the
      // check, and the waiting reservation must then reach its own check.
      scene.reserve("ada");
      Gate<Boolean> ada = scene.awaitCheck(1, "ada");
      scene.reserve("bob");
      scene.release(ada, Answer.FAIL);
      require(scene.hasAnswered("ada") && scene.outcome("ada").error() != null, "ada's availability check failed, "
          + "but her reservation answered " + scene.outcome("ada") + ". " + scene.evidence.borrowed("ada")
          + "The caller must hear the error, at once.");
      Gate<Boolean> bob = scene.awaitNextCheck(2, "bob", "ada's check failed", "failure");

      scene.reserve("cyd");
      scene.release(bob, Answer.NO);
      scene.assertAnswer("bob", Outcome.of(false), "his check said no");
      Gate<Boolean> cyd = scene.awaitNextCheck(3, "cyd", "bob's check said no", "refusal");

      scene.reserve("dan");
      scene.release(cyd, Answer.YES);
      scene.assertAnswer("cyd", Outcome.of(true), "her check said yes and 3 seats were free");
      Gate<Boolean> dan = scene.awaitNextCheck(4, "dan", "cyd got her seat", "success");
      scene.release(dan, Answer.YES);
      scene.assertAnswer("dan", Outcome.of(true), "his check said yes and 2 seats were free");

      // A check that throws instead of returning a future: ivy hears that error, and the next reservation goes ahead.
      scene.throwFor("ivy");
      scene.reserve("ivy");
      require(scene.hasAnswered("ivy") && AvailabilityServiceDown.causedBy(scene.outcome("ivy").error(),
          CLIENT_CLOSED), "ivy's availability check threw (" + CLIENT_CLOSED + ") instead of returning a future, but "
          + "her reservation answered " + scene.outcome("ivy") + ". The caller must hear that error.");
      // Nothing else is in flight: the count must be where ivy found it.
      int afterIvy = scene.freeSeats();
      require(afterIvy == 1, "ivy's availability check threw (" + CLIENT_CLOSED + ") and her reservation answered "
          + scene.outcome("ivy") + ", with no other reservation in flight, yet freeSeats() went from 1 to " + afterIvy
          + ". A reservation whose check throws takes no seat: whatever it did to the count before the call (a seat "
          + "held while asking, a count written early) must be undone on that path too, as on a no and a failed "
          + "check. A try/finally that starts before the call to check() covers the call itself"
          + scene.evidence.inCode() + ".");
      scene.reserve("gus");
      Gate<Boolean> gus = scene.awaitNextCheck(5, "gus", "ivy's check threw instead of returning a future",
          "throwing-check");
      scene.release(gus, Answer.YES);
      scene.assertAnswer("gus", Outcome.of(true), "his check said yes and 1 seat was free");
      scene.evidence.assertNoUpdateLost();

      // Sold out now: eve hears so, and then fred must be let in to hear it too.
      for (String who : List.of("eve", "fred")) {
        scene.reserve(who);
        scene.driveToTheEnd(List.of(who), Map.of(who, Answer.YES), Pace.ONE_AT_A_TIME);
        scene.assertAnswer(who, Outcome.of(false), "the show was sold out");
      }
      scene.assertFreeSeats(0, "3 seats, taken by cyd, dan and gus");
    }
  }
}
