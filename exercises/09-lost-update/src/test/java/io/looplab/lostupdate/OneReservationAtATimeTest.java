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

/**
 * Grades SeatCounter with one reservation at a time: it waits for its availability check, a yes takes a seat, a no
 * takes none, a sold-out show answers false. The check is a gated dependency ({@link ShowScene}): each call waits
 * until this test answers it. Nothing here depends on timing.
 */
@GradedVertxTest
@Order(1)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@DisplayName("09 Lost update: one reservation at a time")
class OneReservationAtATimeTest {

  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(SceneWarmUp::steps);
  }

  @Test
  @Order(1)
  @Points(2)
  @DisplayName("one reservation at a time: it waits for the check; a yes takes one seat, a no takes none, and a "
      + "sold-out show answers false")
  void oneReservationAtATime(Vertx vertx) {
    ShowScene scene = new ShowScene(vertx, 3);

    scene.reserve("ada");
    Gate<Boolean> ada = scene.awaitCheck(1, "ada");
    scene.settle();
    require(!scene.hasAnswered("ada"), "ada's reservation answered " + scene.outcome("ada") + " while her "
        + "availability check was still in flight. A reservation must wait for the check's answer before it answers.");
    scene.release(ada, Answer.YES);
    scene.assertAnswer("ada", Outcome.of(true), "her check said yes and 3 seats were free");
    scene.assertFreeSeats(2, "one reservation of 3 seats, with the check saying yes");

    scene.reserve("bob");
    scene.release(scene.awaitCheck(2, "bob"), Answer.NO);
    scene.assertAnswer("bob", Outcome.of(false), "his check said no");
    scene.assertFreeSeats(2, "bob's check said no, so his reservation must not take a seat");

    ShowScene soldOut = new ShowScene(vertx, 0);
    soldOut.reserve("cyd");
    soldOut.driveToTheEnd(List.of("cyd"), Map.of("cyd", Answer.YES), Pace.ONE_AT_A_TIME);
    soldOut.assertAnswer("cyd", Outcome.of(false), "the show had no free seat");
    soldOut.assertFreeSeats(0, "a show with no free seat");
  }
}
