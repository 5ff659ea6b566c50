package io.looplab.eventloop;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Points;
import io.looplab.grader.guard.GivenCode;
import io.looplab.grader.testkit.Await;
import io.looplab.grader.testkit.WarmUp;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static io.looplab.grader.testkit.Checks.require;

/**
 * Grades where the dashboard's code runs, by what the {@link VisitLog} saw: the thread and context of every call into
 * it. The request handler must run on the verticle's own event loop, the same one for every request; and the
 * callbacks that run once the directory has answered (on its own client thread) must have come back to that loop.
 * The verticle's own fields are watched too ({@link FieldWatch}): none may change while the client thread delivers.
 */
@GradedVertxTest
@GivenCode(value = VisitLog.class, is = "the dashboard's loop-owned bookkeeping, which notes the thread of each call")
@GivenCode(value = UserDirectory.class, is = "the directory's client: it answers on its own thread")
@Order(1)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@DisplayName("01 Event-loop threads: which thread runs your handlers and callbacks")
class WhichThreadTest {

  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(SceneWarmUp::steps);
  }

  @Test
  @Order(1)
  @Points(3)
  @DisplayName("every request is handled on the verticle's own event loop, the same thread each time")
  void everyRequestIsHandledOnTheVerticlesOwnEventLoop(Vertx vertx) {
    try (DashboardScene scene = new DashboardScene(vertx)) {
      List<String> users = List.of("ada", "bob", "cyd");
      for (String user : users) {
        Future<HttpResponse<Buffer>> answer = scene.ask(user);
        scene.drive(List.of(), Set.of(), List.of(answer));
        scene.assertDashboard(answer, user);
      }

      List<VisitLog.Access> opened = scene.accesses(Set.of("opened"));
      require(opened.size() == users.size(), "VisitLog.opened was called " + opened.size() + " times for "
          + users.size() + " requests (" + opened.stream().map(VisitLog.Access::user).toList() + "). Call it once "
          + "per request, when the request comes in.");
      List<String> wrong = scene.offTheLoop(Set.of("opened"));
      require(wrong.isEmpty(), wrong.isEmpty() ? "" : wrong.get(0));
    }
  }

  @Test
  @Order(2)
  @Points(4)
  @DisplayName("once the directory has answered on its own thread, the answer is written on the verticle's event "
      + "loop: callbacks come back to the verticle's context, and no field of the verticle is written on the "
      + "directory's thread")
  void callbacksComeBackToTheVerticlesEventLoop(Vertx vertx) {
    try (DashboardScene scene = new DashboardScene(vertx)) {
      Future<HttpResponse<Buffer>> ada = scene.ask("ada");
      scene.drive(List.of(), Set.of(), List.of(ada));
      scene.assertDashboard(ada, "ada");
      require(scene.accesses(Set.of("answered")).stream().anyMatch(a -> "ada".equals(a.user())),
          "ada's dashboard was answered, but VisitLog.answered(\"ada\") was never called. Call it when a dashboard "
              + "is answered, and VisitLog.failed(user) when it fails.");
      List<String> wrong = scene.offTheLoop(Set.of("answered"));
      require(wrong.isEmpty(), wrong.isEmpty() ? "" : wrong.get(0));

      Future<HttpResponse<Buffer>> bob = scene.ask("bob");
      scene.drive(List.of(), Set.of("bob's profile lookup"), List.of(bob));
      scene.responseTo(bob, "bob's dashboard did not answer within "
          + Await.inWords(DashboardScene.AFTER_THE_LAST_LOOKUP) + " after his profile lookup failed (the test "
          + "answered: " + scene.releasedSoFar() + "). Answer every request, a failed one too.");
      require(scene.accesses(Set.of("failed")).stream().anyMatch(a -> "bob".equals(a.user())),
          "bob's profile lookup failed, but VisitLog.failed(\"bob\") was never called. Call it when a dashboard "
              + "fails.");
      wrong = scene.offTheLoop(Set.of("answered", "failed"));
      require(wrong.isEmpty(), wrong.isEmpty() ? "" : wrong.get(0));

      Optional<String> written = scene.stateWrittenOffTheLoop();
      require(written.isEmpty(), written.orElse(""));
    }
  }
}
