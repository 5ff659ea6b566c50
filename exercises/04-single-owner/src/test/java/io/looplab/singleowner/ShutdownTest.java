package io.looplab.singleowner;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Points;
import io.looplab.grader.guard.GivenCode;
import io.looplab.grader.leaks.ShutdownCheck;
import io.looplab.grader.testkit.Await;
import io.looplab.grader.testkit.DeployedService;
import io.looplab.grader.testkit.WarmUp;
import io.looplab.legacy.LegacyCatalog;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.looplab.grader.testkit.Checks.require;
import static io.looplab.singleowner.LabScene.EASY_TIMEOUT_MS;
import static io.looplab.singleowner.LabScene.WAIT;
import static io.looplab.singleowner.LabScene.bodyOf;

/** Grades the undeploy of the whole application: whatever its verticles opened, they give back. */
@GradedVertxTest
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@GivenCode(value = StockLedger.class, is = "the stock counts, a plain HashMap (given)")
@GivenCode(value = Protocol.class, is = "the event-bus protocol (given)")
@GivenCode(value = LegacyCatalog.class, is = "the legacy catalog's synchronous client: it blocks until the old server answers")
@Order(5)
@DisplayName("04 single owner: undeploying the application leaves nothing behind")
class ShutdownTest {

  @RegisterExtension
  final LabScene scene = new LabScene();

  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(LabScene::warmUp);
  }

  @Test
  @Order(1)
  @Points(3)
  @DisplayName("undeploying LabApp closes the server, the legacy client and its thread, and leaves no timer")
  void undeployLeavesNothingRunning(Vertx vertx) {
    DeployedService app = scene.deployApp(vertx, LabScene.config(EASY_TIMEOUT_MS, new JsonObject().put("apple", 3)));
    // Use every route first, so that whatever the verticles create lazily exists too.
    Future<HttpResponse<Buffer>> pear = app.get("/catalog/pear");
    scene.catalog.requireLookups(1, pear, "GET /catalog/pear", WAIT);
    scene.catalog.answer(0);
    for (Future<HttpResponse<Buffer>> request : List.of(pear, app.post("/stock/apple/reserve"), app.get("/stock/apple"))) {
      HttpResponse<Buffer> answer = Await.result(request, WAIT, "A request before the undeploy did not answer within "
          + Await.inWords(WAIT) + ".");
      require(answer.statusCode() == 200, "A request before the undeploy answered " + answer.statusCode() + " "
          + bodyOf(answer) + " instead of 200.");
    }

    ShutdownCheck.assertCleanUndeploy(vertx, app.deploymentId());
  }
}
