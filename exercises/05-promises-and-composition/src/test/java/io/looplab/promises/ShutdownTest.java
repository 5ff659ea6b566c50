package io.looplab.promises;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Outcome;
import io.looplab.grader.Points;
import io.looplab.grader.guard.GivenCode;
import io.looplab.grader.leaks.ShutdownCheck;
import io.looplab.grader.testkit.WarmUp;
import io.looplab.promises.QuoteScene.Call;
import io.vertx.core.Vertx;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.looplab.grader.testkit.Checks.require;

/**
 * Grades the undeploy: the service gives back what it took (timers, threads, pools: {@link ShutdownCheck}), and a
 * fetch still waiting for the client when the service stops hears that it stopped, instead of waiting for ever.
 */
@GradedVertxTest
@GivenCode(value = LegacyQuoteClient.class, is = "the legacy quote client's callback API")
@Order(5)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@DisplayName("05 Promises: the undeploy")
class ShutdownTest {

  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(SceneWarmUp::steps);
  }

  @Test
  @Order(1)
  @Points(3)
  @DisplayName("undeploying leaves nothing behind, and every fetch still waiting hears that the service stopped")
  void undeployLeavesNothingBehind(Vertx vertx) {
    QuoteScene scene = new QuoteScene(vertx);
    Call<Quote> answered = scene.call("fetch(\"main\", \"ACME\")", s -> s.fetch("main", "ACME"));
    scene.client.awaitRequest(1, answered).quote(CallbackAdapterTest.ACME);
    answered.outcome("the client answered");
    Call<Quote> waiting = scene.call("fetch(\"main\", \"GLOBEX\")", s -> s.fetch("main", "GLOBEX"));
    scene.client.awaitRequest(2, waiting);
    Call<Quote> alsoWaiting = scene.call("fetch(\"main\", \"INITECH\")", s -> s.fetch("main", "INITECH"));
    scene.client.awaitRequest(3, alsoWaiting);

    ShutdownCheck.assertCleanUndeploy(vertx, scene.deploymentId);

    for (Call<Quote> call : List.of(waiting, alsoWaiting)) {
      Outcome<Object> outcome = call.outcome("the service was undeployed while it and one more fetch waited for the "
          + "client (the undeploy cancelled the service's timers, so nothing else would ever answer it)");
      require(outcome.isFailure(), call.what + " answered " + outcome + " after the service stopped, with no "
          + "answer from the client. Fail every fetch still pending in stop().");
    }
  }
}
