package io.looplab.lostupdate;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Outcome;
import io.looplab.grader.Points;
import io.looplab.grader.races.scene.Answer;
import io.looplab.grader.races.scene.Pace;
import io.looplab.grader.sync.Gate;
import io.looplab.grader.testkit.WarmUp;
import io.vertx.core.Vertx;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.looplab.grader.testkit.Checks.require;
import static io.looplab.lostupdate.AvailabilityServiceDown.CLIENT_CLOSED;

/**
 * Grades how SeatCounter hands the turn on: after every way a reservation can end (a failed check, a no, a yes, a
 * check that throws, sold out), the reservation waiting behind it must reach its own check. A correct solution makes
 * that call at once; the one bounded wait, {@link ShowScene#STUCK_MILLIS}, proves that a broken one never does, and
 * the message then says what the evidence shows: a lock still held, an error passed on, or a turn never handed on.
 */
@GradedVertxTest
@Order(3)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@DisplayName("09 Lost update: every way out of a reservation lets the next one in")
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
  void everyPathLetsTheNextReservationIn(Vertx vertx) {
    ShowScene scene = new ShowScene(vertx, 3);

    // Each step: one reservation's check is in flight and the next caller is already waiting. The test answers the
    // check, and the waiting reservation must then reach its own check.
    scene.reserve("ada");
    Gate<Boolean> ada = scene.awaitCheck(1, "ada");
    scene.reserve("bob");
    scene.release(ada, Answer.FAIL);
    require(scene.hasAnswered("ada") && scene.outcome("ada").error() != null, "ada's availability check failed, "
        + "but her reservation answered " + scene.outcome("ada") + ". The caller must hear the error.");
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

    // A check that throws instead of failing its future: ivy hears an error, and the next reservation gets its turn.
    scene.throwFor("ivy");
    scene.reserve("ivy");
    require(scene.hasAnswered("ivy") && scene.outcome("ivy").error() != null, "ivy's availability check threw ("
        + CLIENT_CLOSED + ") instead of failing its future, but her reservation answered " + scene.outcome("ivy")
        + ". The caller must hear the error: a failed future (withLocalLock, compose and Future.future turn an "
        + "exception thrown inside them into one).");
    scene.reserve("gus");
    Gate<Boolean> gus = scene.awaitNextCheck(5, "gus", "ivy's check threw instead of failing its future",
        "throwing-check");
    scene.release(gus, Answer.YES);
    scene.assertAnswer("gus", Outcome.of(true), "his check said yes and 1 seat was free");
    scene.assertNoUpdateLost();

    // Sold out now: eve hears so, and then fred must be let in to hear it too.
    for (String who : List.of("eve", "fred")) {
      scene.reserve(who);
      scene.driveToTheEnd(List.of(who), Map.of(who, Answer.YES), Pace.ONE_AT_A_TIME);
      scene.assertAnswer(who, Outcome.of(false), "the show was sold out");
    }
    scene.assertFreeSeats(0, "3 seats, taken by cyd, dan and gus");
  }
}
