package io.looplab.lifecycle;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Outcome;
import io.looplab.grader.Points;
import io.looplab.grader.sync.Gate;
import io.looplab.grader.testkit.WarmUp;
import io.looplab.lifecycle.ReportScene.Call;
import io.vertx.core.Vertx;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.looplab.grader.testkit.Checks.require;
import static io.looplab.lifecycle.ReportScene.NO_DEADLINE;
import static io.looplab.lifecycle.ReportScene.WAIT;

/**
 * Grades the undeploy: a report done and one still running when the service is undeployed. Nothing of the service's
 * may be left behind (no timer, no thread), the running report must hear that the service stopped, and every
 * connection must be back in the pool, given back once, by the time the undeploy has finished.
 */
@GradedVertxTest
@Order(3)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@DisplayName("06 Resource lifecycle: the undeploy")
class ShutdownTest {

  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(SceneWarmUp::steps);
  }

  @Test
  @Order(1)
  @Points(2)
  @DisplayName("undeploy leaves nothing behind: no timer, the report still running fails, every connection is back")
  void undeployLeavesNothingBehind(Vertx vertx) {
    ReportScene scene = new ReportScene(vertx, 2, NO_DEADLINE);
    Call ada = scene.report("ada");
    scene.awaitQuery(1, ada).open("ada's report: 4 rows");
    require(ada.outcome(WAIT, "after her query answered").equals(Outcome.of("ada's report: 4 rows")),
        "report(\"ada\") should answer her report, but it answered " + ada.outcomeNow() + ".");
    Call bob = scene.report("bob");
    Gate<String> bobQuery = scene.awaitQuery(2, bob);

    scene.assertCleanUndeployWhileRunning(List.of(bob));
    require(bob.hasAnswered() && bob.outcomeNow().isFailure(), "The service was undeployed while bob's report "
        + "still ran, and report(\"bob\") " + (bob.hasAnswered() ? "answered " + bob.outcomeNow() : "never answered")
        + ". A report still running at undeploy must be abandoned: fail it (the service stopped) in stop(), so that "
        + "its caller is not kept waiting for a service that is gone.");
    scene.assertEveryConnectionBack("once the undeploy had finished: a report still running at undeploy kept its "
        + "connection. stop() must abandon every report in flight, and complete only once their connections are "
        + "back (keep the running reports, fail each one's answer in stop(), and return a future that waits for "
        + "them)");
    bobQuery.open("bob's report, after the undeploy");
    scene.flush();
    scene.assertEachGivenBackOnce("after the undeploy, when bob's abandoned query answered late");
  }

  @Test
  @Order(2)
  @Points(2)
  @DisplayName("undeploy with three reports in flight, two of them for the same report: each one fails, and every "
      + "connection is back, once, by the time the undeploy has finished")
  void undeployAbandonsEveryReportInFlight(Vertx vertx) {
    ReportScene scene = new ReportScene(vertx, 3, NO_DEADLINE);
    // Two callers ask for ada's report at once, and bob for his: three reports in flight, each with a connection.
    Call ada = scene.report("ada", "the first caller");
    Gate<String> adaQuery = scene.awaitQuery(1, ada);
    Call bob = scene.report("bob");
    Gate<String> bobQuery = scene.awaitQuery(2, bob);
    Call adaAgain = scene.report("ada", "the second caller");
    Gate<String> adaAgainQuery = scene.awaitQuery(3, adaAgain);
    List<Call> running = List.of(ada, bob, adaAgain);

    scene.undeployWhileRunning(running);
    for (Call call : running) {
      require(call.hasAnswered() && call.outcomeNow().isFailure(), "The service was undeployed while three reports "
          + "still ran (" + running.stream().map(Call::toString).toList() + "), and " + call + " "
          + (call.hasAnswered() ? "answered " + call.outcomeNow() : "never answered") + ". stop() must abandon "
          + "every report in flight, not only one of them: keep each one (two reports for the same name are two "
          + "reports), and fail each one's answer.");
    }
    scene.assertEveryConnectionBack("once the undeploy had finished, with three reports in flight: stop() must "
        + "complete only once the connection of every report it abandoned is back");
    adaQuery.open("ada's report, after the undeploy");
    bobQuery.open("bob's report, after the undeploy");
    adaAgainQuery.open("ada's report again, after the undeploy");
    scene.flush();
    scene.assertEachGivenBackOnce("after the undeploy, when the three abandoned queries answered late");
  }
}
