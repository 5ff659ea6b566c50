package io.looplab.reserve;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Points;
import io.looplab.grader.leaks.ShutdownCheck;
import io.looplab.grader.races.Fresh;
import io.looplab.grader.testkit.Await;
import io.looplab.grader.testkit.WarmUp;
import io.looplab.payments.PaymentDeclinedException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.Message;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static io.looplab.reserve.Show.WAIT;
import static io.looplab.reserve.Show.WAIT_MILLIS;

/**
 * Grades BoxOfficeVerticle's undeploy: after an approved and a declined booking, undeploying it leaves no server,
 * Vert.x timer, worker pool, lock or thread behind.
 */
@GradedVertxTest
@Order(4)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@DisplayName("10 Reserve, then confirm: undeploying the box office")
class BoxOfficeVerticleTest {

  /** What a booking that has no answer of any kind means. */
  private static final String ANSWER_LATE = "A booking had no answer within " + WAIT_MILLIS + " ms of its payment's "
      + "outcome. Answer every booking: a confirmation, or a failure.";

  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(BoxOfficeWarmUp::steps);
  }

  @Test
  @Order(7)
  @Points(3)
  @DisplayName("undeploying the box office leaves nothing running")
  void undeployLeavesNothingRunning(Vertx vertx) {
    HeldPayments payments = new HeldPayments();
    String id = Await.result(vertx.deployVerticle(new BoxOfficeVerticle(2, payments)), WAIT,
        "Deploying BoxOfficeVerticle did not finish within " + WAIT_MILLIS + " ms: start() must complete its future "
            + "once its consumers are registered.");
    // One approved and one declined booking first, so that whatever the verticle creates on those paths exists.
    Future<Message<String>> ada = vertx.eventBus().request(BoxOfficeVerticle.BOOK_ADDRESS, Fresh.copyOf("ada"));
    payments.awaitCharge("ada").open(null);
    Await.outcome(ada, WAIT, ANSWER_LATE);
    Future<Message<String>> bob = vertx.eventBus().request(BoxOfficeVerticle.BOOK_ADDRESS, Fresh.copyOf("bob"));
    payments.awaitCharge("bob").fail(new PaymentDeclinedException("card declined"));
    Await.outcome(bob, WAIT, ANSWER_LATE);

    ShutdownCheck.assertCleanUndeploy(vertx, id);
  }
}
