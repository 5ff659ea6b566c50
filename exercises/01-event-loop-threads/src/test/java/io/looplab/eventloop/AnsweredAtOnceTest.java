package io.looplab.eventloop;

import io.looplab.eventloop.GatedDirectory.Lookup;
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
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.TestFactory;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static io.looplab.grader.testkit.Checks.require;

/**
 * Grades a directory that sometimes answers before its call returns: a cached answer, or a request it refuses at
 * once, comes back as a CompletionStage that is already complete, on the caller's own thread (the verticle's event
 * loop). The dashboard must treat it like any other answer.
 */
@GradedVertxTest
@GivenCode(value = VisitLog.class, is = "the dashboard's loop-owned bookkeeping, which notes the thread of each call")
@GivenCode(value = UserDirectory.class, is = "the directory's client: it answers on its own thread")
@Order(3)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@DisplayName("01 Event-loop threads: a lookup the directory answers before it returns")
class AnsweredAtOnceTest {

  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(SceneWarmUp::steps);
  }

  @TestFactory
  @Order(1)
  @Points(2)
  @DisplayName("when the directory answers one lookup before the call returns (a stage already complete) and the "
      + "other later on its own thread, the dashboard, or the error when the early one failed, is the same as ever")
  Stream<DynamicTest> aLookupAnsweredAtOnceIsHandledLikeALateOne(Vertx vertx) {
    return Stream.of("profile", "orders").flatMap(kind -> Stream.of(false, true).map(fails ->
        DynamicTest.dynamicTest("the " + kind + " lookup " + (fails ? "fails" : "is answered")
            + " before the call returns", () -> answeredAtOnce(vertx, kind, fails))));
  }

  private static void answeredAtOnce(Vertx vertx, String kind, boolean fails) {
    String early = "ada's " + kind + " lookup";
    String other = "ada's " + (kind.equals("profile") ? "orders" : "profile") + " lookup";
    try (DashboardScene scene = new DashboardScene(vertx)) {
      scene.directory.answerAtOnce(early, fails);
      Future<HttpResponse<Buffer>> answer = scene.ask("ada");
      if (fails) {
        String reason = Users.outage(kind, "ada");
        Optional<Lookup> made = scene.awaitHoldingTheOthers("ada", early);
        require(made.isEmpty(), early + " was to be answered at once, yet it waited for the test.");
        Optional<Lookup> held = scene.directory.pending().stream().filter(l -> l.label().equals(other)).findFirst();
        HttpResponse<Buffer> response = scene.responseTo(answer, "The directory failed " + early + " before the "
            + "call returned (a CompletionStage already failed, with \"" + reason + "\"), and ada's dashboard gave no "
            + "answer within " + Await.inWords(DashboardScene.AFTER_THE_LAST_LOOKUP)
            + (held.isPresent() ? ", while the test held " + other + " unanswered" : "") + ". A stage that is "
            + "already complete is an answer like any other: Future.fromCompletionStage(stage, context) delivers "
            + "it, and a failed one must fail the dashboard, at once.");
        FailedAnswer.assertFailedWith(response, early, reason);
        held.ifPresent(lookup -> scene.release(lookup, false));
      } else {
        scene.drive(List.of(), Set.of(), List.of(answer));
        scene.assertDashboard(answer, "ada");
      }
      String expected = fails ? "failed(\"ada\")" : "answered(\"ada\")";
      List<String> seen = scene.accesses(Set.of("answered", "failed")).stream()
          .filter(access -> "ada".equals(access.user())).map(access -> access.method() + "(\"ada\")").toList();
      require(seen.equals(List.of(expected)), "With " + early + (fails ? " failed" : " answered") + " before the "
          + "call returned, the VisitLog had " + (seen.isEmpty() ? "no call" : String.join(", ", seen))
          + " for ada's one request, where it should have exactly one " + expected + ".");
      List<String> wrong = scene.offTheLoop(Set.of("opened", "answered", "failed"));
      require(wrong.isEmpty(), wrong.isEmpty() ? "" : wrong.get(0));
      Optional<String> written = scene.stateWrittenOffTheLoop();
      require(written.isEmpty(), written.orElse(""));
    }
  }
}
