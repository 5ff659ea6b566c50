package io.looplab.manyloops;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Points;
import io.looplab.grader.leaks.ShutdownCheck;
import io.looplab.grader.testkit.Await;
import io.looplab.grader.testkit.WarmUp;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonArray;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.looplab.grader.testkit.Checks.require;
import static io.looplab.manyloops.Limits.WAIT_SECONDS;

/** Undeploying the four instances takes everything they started with them. */
@GradedVertxTest
@Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
@Order(4)
@DisplayName("12 Many event loops: undeploying the instances leaves nothing behind")
class UndeployTest {

  /** Nothing here is graded: see {@link WarmUp} and {@link EventBusWarmUp}. */
  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(EventBusWarmUp::steps);
  }

  @Test
  @Order(5)
  @Points(3)
  @DisplayName("undeploying the four instances leaves no consumer, verticle, timer, worker pool or thread behind")
  void undeployLeavesNothingBehind(Vertx vertx) {
    Stats stats = Stats.deploy(vertx);
    stats.sendBatch(new JsonArray().add("/bye/home").add("/bye/home"));
    stats.snapshot();

    ShutdownCheck.assertCleanUndeploy(vertx, stats.deploymentId());

    // Still deployed: anything the instances deployed on their own, and did not undeploy with them.
    require(vertx.deploymentIDs().isEmpty(), "After undeploying PageStatsVerticle, these deployments were still "
        + "running: " + vertx.deploymentIDs() + ". A verticle deployed from start() (for example a single owner of "
        + "the statistics) must be undeployed with the instances: deploy it from start(), on the instance's own "
        + "context, so that Vert.x undeploys it with its parent, or undeploy it in stop().");
    // Still consuming: a consumer registered elsewhere than on the instances' own contexts.
    for (String address : List.of(PageStatsVerticle.VIEWS, PageStatsVerticle.SNAPSHOT)) {
      Future<Message<Object>> answer = vertx.eventBus().request(address, address.equals(PageStatsVerticle.VIEWS)
          ? new JsonArray().add("/bye/home") : null, new DeliveryOptions().setSendTimeout(WAIT_SECONDS * 1000));
      String stillServed = "After undeploying PageStatsVerticle, a message to " + address + " still reached a "
          + "consumer (%s). Register consumers in start(), where Vert.x unregisters them on undeploy, or unregister "
          + "them in stop().";
      Throwable failure = Await.failure(answer, Duration.ofSeconds(2 * WAIT_SECONDS), "A request to " + address
          + " after undeploy neither failed nor got an answer within " + 2 * WAIT_SECONDS + " s.",
          String.format(stillServed, "it answered %s"));
      require(failure instanceof ReplyException reply && reply.failureType() == ReplyFailure.NO_HANDLERS,
          String.format(stillServed, failure));
    }
  }
}
