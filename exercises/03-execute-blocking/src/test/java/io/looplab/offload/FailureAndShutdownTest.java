package io.looplab.offload;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Points;
import io.looplab.grader.guard.GivenCode;
import io.looplab.grader.leaks.ShutdownCheck;
import io.looplab.grader.testkit.Await;
import io.looplab.grader.testkit.DeployedService;
import io.looplab.grader.testkit.WarmUp;
import io.looplab.vendor.LegacyDirectory;
import io.looplab.vendor.PasswordHasher;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.opentest4j.AssertionFailedError;

import java.util.concurrent.TimeUnit;

import static io.looplab.grader.testkit.Checks.require;
import static io.looplab.offload.AccountsScene.HASHING_TEST_LIMIT_SECONDS;
import static io.looplab.offload.AccountsScene.HASH_WAIT;
import static io.looplab.offload.AccountsScene.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Grades what AccountsVerticle does when things end: a lookup the legacy directory fails reaches the caller as a
 * 500, and an undeploy leaves nothing running. The directory is a {@link HeldDirectory}, whose every call blocks
 * until this test answers or fails it. The guard fails any test whose code blocks or stalls an event loop.
 */
@GradedVertxTest
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@GivenCode(value = LegacyDirectory.class, is = "the directory's synchronous client: it blocks until the directory answers")
@GivenCode(value = PasswordHasher.class, is = "about 100 ms of CPU per call")
@Order(3)
@DisplayName("03 executeBlocking: a failure reaches the caller, and an undeploy leaves nothing behind")
class FailureAndShutdownTest {

  @RegisterExtension
  final AccountsScene scene = new AccountsScene();
  private final HeldDirectory directory = scene.directory;

  /** Runs the Vert.x Web path this exercise uses once, before any graded test: see {@link WarmUp}. */
  @BeforeAll
  @org.junit.jupiter.api.Timeout(value = HASHING_TEST_LIMIT_SECONDS, unit = TimeUnit.SECONDS)
  static void warmUpTheJvm() {
    WarmUp.jvm(WarmUp::webRoundTrip);
  }

  @Test
  @Order(6)
  @Points(4)
  @DisplayName("when the legacy directory fails, the caller gets HTTP 500 with the directory's reason in the body")
  void directoryFailureReachesTheCallerAs500(Vertx vertx) {
    scene.deploy(vertx);
    String reason = "directory timed out after 30 s";

    Future<HttpResponse<Buffer>> eve = scene.lookUp("eve");
    if (!directory.awaitInFlight(1, WAIT)) {
      throw new AssertionFailedError("No lookup reached the legacy directory within " + Await.inWords(WAIT) + " of "
          + "GET /users/eve. Call directory.displayName on a worker thread for each request.");
    }
    directory.fail("eve", reason);

    HttpResponse<Buffer> response = Await.result(eve, WAIT, "The directory failed the lookup for eve "
        + "(LegacyDirectoryException: " + reason + "), and after " + Await.inWords(WAIT) + " the caller still had no "
        + "answer: the failure was lost. An exception thrown in executeBlocking does not reach a try/catch around "
        + "the call; it fails the returned future. Handle that failure (onFailure, or onComplete) and answer 500.");
    assertEquals(500, response.statusCode(), "The directory failed the lookup for eve with \"" + reason + "\", so "
        + "GET /users/eve should answer 500, but it answered " + response.statusCode() + " with the body: "
        + response.bodyAsString() + ". A failure must reach the caller as a failure, not as an answer.");
    require(response.bodyAsString().contains(reason), "GET /users/eve answered 500, but its body does not say "
        + "why: \"" + response.bodyAsString() + "\". Put the exception's message in the body (answerError does), so "
        + "that the caller learns that \"" + reason + "\".");
  }

  @Test
  @Order(7)
  @Points(3)
  @DisplayName("undeploying the verticle closes its server and its worker pool, and leaves no thread behind")
  @org.junit.jupiter.api.Timeout(value = HASHING_TEST_LIMIT_SECONDS, unit = TimeUnit.SECONDS)
  void undeployLeavesNothingRunning(Vertx vertx) {
    DeployedService service = scene.deploy(vertx);
    // Use both endpoints first, so that whatever the verticle creates lazily exists too.
    Future<HttpResponse<Buffer>> ada = scene.lookUp("ada");
    if (!directory.awaitInFlight(1, WAIT)) {
      throw new AssertionFailedError("No lookup reached the legacy directory within " + Await.inWords(WAIT) + " of "
          + "GET /users/ada. Call directory.displayName on a worker thread for each request.");
    }
    directory.answer("ada");
    scene.assertAnswered(ada, "ada", "");
    HttpResponse<Buffer> hashed = Await.result(scene.hash("before undeploy"), HASH_WAIT,
        "POST /hash did not answer within " + Await.inWords(HASH_WAIT) + ".");
    assertEquals(200, hashed.statusCode(), "POST /hash should answer 200; the body was: " + hashed.bodyAsString());

    ShutdownCheck.assertCleanUndeploy(vertx, service.deploymentId());
  }
}
