package io.looplab.eventloop;

import io.looplab.eventloop.GatedDirectory.Lookup;
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
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static io.looplab.grader.testkit.Checks.require;

/** Grades what a failed lookup does to the answer, and that the dashboard leaves nothing behind when undeployed. */
@GradedVertxTest
@GivenCode(value = VisitLog.class, is = "the dashboard's loop-owned bookkeeping, which notes the thread of each call")
@GivenCode(value = UserDirectory.class, is = "the directory's client: it answers on its own thread")
@Order(4)
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
  @Points(3)
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
            FailedAnswer.assertFailedWith(response, failing, reason);
          }
        })));
  }

  @TestFactory
  @Order(6)
  @Points(3)
  @DisplayName("when one lookup fails while the other is still unanswered, the error is answered at once, without "
      + "waiting for the other; its late answer, or late failure, changes nothing")
  Stream<DynamicTest> aFailureAnswersAtOnceAndTheLateLookupChangesNothing(Vertx vertx) {
    return Stream.of("profile", "orders").flatMap(kind -> Stream.of(false, true).map(lateFails ->
        DynamicTest.dynamicTest("the " + kind + " lookup fails first, then the other one "
            + (lateFails ? "fails too" : "answers"), () -> failFirst(vertx, kind, lateFails))));
  }

  private static void failFirst(Vertx vertx, String kind, boolean lateFails) {
    String failing = "ada's " + kind + " lookup";
    String other = "ada's " + (kind.equals("profile") ? "orders" : "profile") + " lookup";
    String reason = Users.outage(kind, "ada");
    try (DashboardScene scene = new DashboardScene(vertx)) {
      Future<HttpResponse<Buffer>> answer = scene.ask("ada");
      scene.release(scene.awaitHoldingTheOthers("ada", failing).orElseThrow(), true);
      Optional<Lookup> held = scene.directory.pending().stream().filter(l -> l.label().equals(other)).findFirst();
      HttpResponse<Buffer> response = scene.responseTo(answer, failing + " failed with \"" + reason + "\", and "
          + "ada's dashboard gave no answer within " + Await.inWords(DashboardScene.AFTER_THE_LAST_LOOKUP)
          + (held.isPresent() ? ", while the test still held " + other + " unanswered. Once one lookup has failed, "
          + "the dashboard has failed: answer the error at once, without waiting for the other lookup. "
          + "Future.all fails as soon as one of its futures fails; Future.join, or a compose on the other lookup "
          + "(profile.compose(p -> orders.map(...))), waits for that other lookup first, and a lookup that hangs "
          + "then leaves the caller with no answer at all." : " (the test answered: " + scene.releasedSoFar()
          + "). Handle the failure as well as the success, and answer 502 with the error's message."));
      FailedAnswer.assertFailedWith(response, failing, reason);
      if (held.isEmpty()) {
        return; // the code had not made the other lookup yet: there is no late answer to deliver
      }
      scene.release(held.get(), lateFails);
      List<VisitLog.Access> outcomes = scene.accesses(Set.of("answered", "failed")).stream()
          .filter(access -> "ada".equals(access.user())).toList();
      List<String> seen = outcomes.stream().map(access -> access.method() + "(\"ada\")").toList();
      require(seen.equals(List.of("failed(\"ada\")")), "ada's dashboard answered the error when " + failing
          + " failed; then the test let " + other + (lateFails ? " fail too" : " answer") + ", late. The VisitLog "
          + "then had " + (seen.isEmpty() ? "no call" : String.join(", ", seen)) + " for ada, where one request "
          + "must end as exactly one failed(\"ada\"). A request is decided once it has answered: a late lookup must "
          + "change nothing. Future.all ignores what comes after its failure; a promise completed by hand must be "
          + "completed once (tryComplete, tryFail).");
      Optional<String> written = scene.stateWrittenOffTheLoop();
      require(written.isEmpty(), written.orElse(""));
    }
  }

  @Test
  @Order(7)
  @Points(2)
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
