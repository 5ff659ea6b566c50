package io.looplab.eventloop;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Points;
import io.looplab.grader.guard.GivenCode;
import io.looplab.grader.leaks.ShutdownCheck;
import io.looplab.grader.sync.EveryOrder;
import io.looplab.grader.testkit.Await;
import io.looplab.grader.testkit.WarmUp;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static io.looplab.grader.testkit.Checks.require;

/** Grades what a failed lookup does to the answer, and that the dashboard leaves nothing behind when undeployed. */
@GradedVertxTest
@GivenCode(value = VisitLog.class, is = "the dashboard's loop-owned bookkeeping, which notes the thread of each call")
@GivenCode(value = UserDirectory.class, is = "the directory's client: it answers on its own thread")
@Order(3)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@DisplayName("01 Event-loop threads: a failed lookup, and the undeploy")
class FailureAndShutdownTest {

  private static final List<String> ADA = List.of("ada's profile lookup", "ada's orders lookup");

  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(SceneWarmUp::steps);
  }

  @TestFactory
  @Order(5)
  @Points(4)
  @DisplayName("when the profile or the orders lookup fails (#1 profile, #2 orders), the dashboard answers an error "
      + "with the reason (5xx), never a partial dashboard and never silence, in either release order")
  Stream<DynamicTest> aFailedLookupFailsTheAnswer(Vertx vertx) {
    return Stream.of("profile", "orders").flatMap(kind -> EveryOrder.permutations(2).stream().map(order ->
        DynamicTest.dynamicTest("the " + kind + " lookup fails, release order #" + (order[0] + 1) + " then #"
            + (order[1] + 1), () -> {
          String failing = "ada's " + kind + " lookup";
          String reason = Users.outage(kind, "ada");
          try (DashboardScene scene = new DashboardScene(vertx)) {
            Future<HttpResponse<Buffer>> answer = scene.ask("ada");
            scene.drive(LookupsOverlapTest.priority(ADA, order), Set.of(failing), List.of(answer));
            HttpResponse<Buffer> response = scene.responseTo(answer, "ada's dashboard got no answer within "
                + Await.inWords(DashboardScene.AFTER_THE_LAST_LOOKUP) + " after " + failing + " failed with \""
                + reason + "\" (the "
                + "test answered: " + scene.releasedSoFar() + "). The failure was lost on its way to the caller, "
                + "who now waits until their own timeout. Handle the failure as well as the success (onComplete, "
                + "or onFailure next to onSuccess), and answer 502 with the error's message.");
            require(response.statusCode() >= 500 && response.statusCode() < 600, failing + " failed with \""
                + reason + "\", but the dashboard answered " + response.statusCode() + ": " + response.bodyAsString()
                + (response.statusCode() == 200 ? ". That is a partial dashboard presented as a success: the "
                + "caller cannot tell it from a user who really has no orders or no profile." : ".")
                + " A failed lookup must fail the answer: Future.all fails as soon as one of its futures fails; "
                + "answer 502 with the error's message.");
            require(response.bodyAsString() != null && response.bodyAsString().contains(reason), failing
                + " failed with \"" + reason + "\", and the dashboard answered " + response.statusCode()
                + ", but its body (" + response.bodyAsString() + ") does not say why. Put the error's message in "
                + "the body, so that the caller knows which service to blame.");
          }
        })));
  }

  @Test
  @Order(6)
  @Points(3)
  @DisplayName("after answering a dashboard, undeploying the verticle leaves nothing running: no server, timer, "
      + "pool or thread")
  void undeployLeavesNothingBehind(Vertx vertx) {
    try (DashboardScene scene = new DashboardScene(vertx)) {
      Future<HttpResponse<Buffer>> ada = scene.ask("ada");
      scene.drive(List.of(), Set.of(), List.of(ada));
      scene.assertDashboard(ada, "ada");
      scene.directory.close(); // the test's own client thread: stopped first, so that only the learner's leaks count
      ShutdownCheck.assertCleanUndeploy(vertx, scene.deploymentId());
    }
  }
}
