package io.looplab.lostupdate;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Points;
import io.looplab.grader.leaks.LockCensus;
import io.looplab.grader.leaks.ShutdownCheck;
import io.looplab.grader.races.Fresh;
import io.looplab.grader.sync.GatedDependency;
import io.looplab.grader.testkit.Await;
import io.looplab.grader.testkit.WarmUp;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.looplab.grader.testkit.Checks.require;
import static io.looplab.lostupdate.AvailabilityServiceDown.OUTAGE;

/**
 * Grades the given BoxOfficeVerticle with the learner's SeatCounter inside: a reservation over the event bus, a
 * failed check that must reach the caller as a failure, no lock left held once every reservation has answered, and
 * a clean undeploy.
 */
@GradedVertxTest
@Order(4)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@DisplayName("09 Lost update: the box office on the event bus, and its undeploy")
class BoxOfficeVerticleTest {

  /** How long the test waits for what a correct solution does at once: a deployment, a call to the check, a reply. */
  private static final Duration WAIT = ShowScene.WAIT;

  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(SceneWarmUp::steps);
  }

  @Test
  @Order(6)
  @Points(3)
  @DisplayName("the box office answers over the event bus, holds no lock once every reservation has answered, and "
      + "undeploys leaving nothing behind")
  void undeployLeavesNothingBehind(Vertx vertx) {
    GatedDependency<String, Boolean> check = new GatedDependency<>();
    String id = Await.result(vertx.deployVerticle(new BoxOfficeVerticle(5, check::apply)), WAIT, "Deploying "
        + "BoxOfficeVerticle did not finish within " + Await.inWords(WAIT) + ".");

    Future<Message<JsonObject>> ada = vertx.eventBus().request(BoxOfficeVerticle.ADDRESS, Fresh.copyOf("ada"));
    check.awaitCalls(1, WAIT.toMillis()).get(0).open(true);
    JsonObject reply = Await.result(ada, WAIT, "The box office did not reply to ada within " + Await.inWords(WAIT)
        + " after her check said yes.").body();
    require(reply.equals(new JsonObject().put("who", "ada").put("reserved", true).put("freeSeats", 4)),
        "The box office should reply {\"who\":\"ada\",\"reserved\":true,\"freeSeats\":4} to ada's reservation of "
            + "one of 5 seats, but replied " + reply + ".");

    Future<Message<JsonObject>> mallory = vertx.eventBus().request(BoxOfficeVerticle.ADDRESS,
        Fresh.copyOf("mallory"));
    check.awaitCalls(2, WAIT.toMillis()).get(1).fail(new AvailabilityServiceDown(OUTAGE));
    Throwable failure = Await.failure(mallory, WAIT, "The box office did not answer mallory within "
        + Await.inWords(WAIT) + " after her check failed: the failure was lost on its way back to the caller.",
        "mallory's check failed, so the box office should fail her request with code "
        + BoxOfficeVerticle.CHECK_FAILED + " and the reason, but it replied %s: SeatCounter.reserve turned the "
        + "check's failure into an answer. Fail its future with the check's error instead.");
    require(failure instanceof ReplyException reject && reject.failureCode() == BoxOfficeVerticle.CHECK_FAILED
            && String.valueOf(reject.getMessage()).contains(OUTAGE),
        "mallory's check failed with \"" + OUTAGE + "\", so the box office should fail her request with code "
            + BoxOfficeVerticle.CHECK_FAILED + " and that reason, but the reply was: " + failure
            + ". SeatCounter.reserve must fail its future with the check's error.");

    List<String> held = LockCensus.heldLocalLocks(vertx);
    require(held.isEmpty(), "Lock leak: every reservation has answered, and yet " + String.join(", ", held)
        + (held.size() == 1 ? " is" : " are") + " still held. The next reservation would wait for them until it times "
        + "out. Release the lock on every path (a seat, sold out, a no, and a failed check): withLocalLock does it "
        + "for you, or release it in andThen/onComplete, never only in onSuccess.");

    ShutdownCheck.assertCleanUndeploy(vertx, id);
  }
}
