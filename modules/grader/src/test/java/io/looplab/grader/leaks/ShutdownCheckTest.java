package io.looplab.grader.leaks;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.fixtures.Verticles;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The shutdown check passes a verticle that gives back what it took, and names each kind of leak. */
@GradedVertxTest
class ShutdownCheckTest {

  static String deploy(Vertx vertx, io.vertx.core.Deployable verticle) throws Exception {
    return vertx.deployVerticle(verticle).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  static String leakMessage(Vertx vertx, io.vertx.core.Deployable verticle) throws Exception {
    String id = deploy(vertx, verticle);
    return assertThrows(AssertionFailedError.class, () -> ShutdownCheck.assertCleanUndeploy(vertx, id)).getMessage();
  }

  @RepeatedTest(5)
  @DisplayName("a verticle whose server, timer and worker pool were created in start() undeploys clean")
  void tidyVerticlePasses(Vertx vertx) throws Exception {
    String id = deploy(vertx, new Verticles.Tidy());
    assertEquals(1, WorkerPools.open(vertx).size(), "the pool is open while deployed: " + WorkerPools.open(vertx));
    ShutdownCheck.assertCleanUndeploy(vertx, id);
  }

  @Test
  @DisplayName("a thread pool that is never shut down is reported by its thread's name")
  void threadLeakIsReported(Vertx vertx) throws Exception {
    String message = leakMessage(vertx, new Verticles.LeaksThreadPool());
    assertTrue(message.contains("the thread 'forgotten-pool' (an idle worker of an ExecutorService that was never shut down)"), message);
  }

  @Test
  @DisplayName("a Vert.x timer that undeploy cannot cancel is reported")
  void timerLeakIsReported(Vertx vertx) throws Exception {
    String message = leakMessage(vertx, new Verticles.LeaksTimer());
    assertTrue(message.contains("a periodic timer set in io.looplab.grader.fixtures.Verticles$LeaksTimer"), message);
  }

  @Test
  @DisplayName("a server still listening after undeploy is reported with its port")
  void serverLeakIsReported(Vertx vertx) throws Exception {
    String message = leakMessage(vertx, new Verticles.LeaksServer());
    assertTrue(message.contains("an HTTP server"), message);
  }

  @Test
  @DisplayName("a local lock still held after undeploy is reported by its name")
  void lockLeakIsReported(Vertx vertx) throws Exception {
    String message = leakMessage(vertx, new Verticles.HoldsLock());
    assertTrue(message.contains("the local lock 'forgotten'"), message);
  }
}
