package io.looplab.virtualthreads;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Outcome;
import io.looplab.grader.Points;
import io.looplab.grader.races.scene.Answer;
import io.looplab.grader.sync.EveryOrder;
import io.looplab.grader.sync.Gate;
import io.looplab.grader.testkit.WarmUp;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.TestFactory;
import org.opentest4j.AssertionFailedError;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static io.looplab.grader.testkit.Checks.require;
import static io.looplab.virtualthreads.ShowScene.STUCK_MILLIS;

/**
 * Grades what one SeatCounter keeps to itself: two shows in one Vert.x instance, each a SeatCounter of its own on a
 * deployment of its own, as two box offices would be. Each keeps its own count, and a reservation of one never waits
 * for a reservation of the other: one lock name (or one line of turns) for every reservation of ONE counter, and
 * another for another counter. The one bounded wait, {@link ShowScene#STUCK_MILLIS}, proves that a reservation held
 * up by the other show never reaches its check; a correct solution reaches it at once.
 */
@GradedVertxTest
@Order(4)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@DisplayName("14 Virtual threads: two shows, two counters, nothing shared")
class TwoShowsTest {

  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(SceneWarmUp::steps);
  }

  @TestFactory
  @Order(6)
  @Points(2)
  @DisplayName("two shows in one Vert.x instance (two SeatCounters, two deployments) keep their own seats and their "
      + "own turns: ada's reservation for the opera does not hold up bob's for the jazz night, whichever check "
      + "answers first")
  Stream<DynamicTest> twoShowsKeepTheirOwnSeatsAndTurns() {
    return EveryOrder.of(2, order -> {
      try (ShowScene opera = new ShowScene(3); ShowScene jazz = opera.anotherShow(5)) {
        int operaSeats = opera.freeSeats();
        int jazzSeats = jazz.freeSeats();
        require(operaSeats == 3 && jazzSeats == 5, "The opera's SeatCounter was created with 3 seats, then the jazz "
            + "night's, a second SeatCounter of the same JVM on a deployment of its own, with 5. Before any "
            + "reservation, the opera's freeSeats() is " + operaSeats + " and the jazz night's " + jazzSeats
            + (operaSeats == jazzSeats ? ": creating the second counter changed the first one's count, so the two "
            + "share one. A static field is one for every instance in the JVM: keep the count in an instance field"
            : ": each counter must start with the seats it was given") + ".");

        opera.reserve("ada");
        Gate<Boolean> ada = opera.awaitCheck(1, "ada");
        jazz.reserve("bob");
        if (!jazz.checkArrivesWithin(1, STUCK_MILLIS)) {
          throw heldUp(opera, jazz);
        }
        Gate<Boolean> bob = jazz.awaitCheck(1, "bob");

        // Both checks are in flight, one per show: answered in the order under test.
        if (order[0] == 0) {
          opera.release(ada, Answer.YES);
          jazz.release(bob, Answer.YES);
        } else {
          jazz.release(bob, Answer.YES);
          opera.release(ada, Answer.YES);
        }
        opera.assertAnswer("ada", Outcome.of(true), "her check said yes and the opera had 3 free seats");
        jazz.assertAnswer("bob", Outcome.of(true), "his check said yes and the jazz night had 5 free seats");
        opera.assertFreeSeats(2, "one reservation for the opera (3 seats) and one for the jazz night (5 seats)");
        jazz.assertFreeSeats(4, "one reservation for the jazz night (5 seats) and one for the opera (3 seats)");
      }
    });
  }

  /** bob's reservation for the jazz night never reached its check while ada's for the opera awaited hers. */
  private static AssertionFailedError heldUp(ShowScene opera, ShowScene jazz) {
    List<String> held = opera.heldLocks();
    String what = "bob's reservation for the jazz night did not reach its availability check within " + STUCK_MILLIS
        + " ms, while ada's reservation for the opera, of another SeatCounter on another deployment, was suspended in "
        + "the await of her check" + (jazz.hasAnswered("bob") ? "; bob's reservation answered "
        + jazz.outcome("bob") + " without asking" : ", and bob has no answer either") + ". ";
    if (!held.isEmpty()) {
      return new AssertionFailedError(what + "Meanwhile " + String.join(", ", held) + (held.size() == 1 ? " is"
          : " are") + " held while ada awaits her check, and bob's reservation waits for it: both counters take a "
          + "lock of the same name. A Vert.x local lock is shared by name across the whole Vert.x instance, so two "
          + "shows whose counters use one name wait for each other's checks. Give each counter a name of its own "
          + "(one name for every reservation of that counter: a number counted per counter, or a UUID, kept in an "
          + "instance field)"
          + opera.evidence.inCode() + ".");
    }
    return new AssertionFailedError(what + "No local lock is held, so bob waits for something else that ada's "
        + "reservation holds: a turn, a promise or a queue shared by the two counters. A static field is one for "
        + "every SeatCounter in the JVM: keep the line of turns in an instance field, one per counter"
        + opera.evidence.inCode() + ".");
  }
}
