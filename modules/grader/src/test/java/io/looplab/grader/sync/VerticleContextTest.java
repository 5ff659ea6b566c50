package io.looplab.grader.sync;

import io.looplab.grader.testkit.OnContext;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The one rule for "runs on the verticle's context": duplicates count, other contexts and workers do not. */
class VerticleContextTest {

  private static final Duration WITHIN = Duration.ofSeconds(5);
  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() {
    vertx.close().await();
  }

  @Test
  @DisplayName("the context itself and a duplicate of it (a periodic timer's, an HTTP request's) are the verticle's")
  void aDuplicateIsTheVerticlesOwn() throws Exception {
    Context verticles = vertx.getOrCreateContext();
    assertTrue(OnContext.call(verticles, () -> VerticleContext.isCurrent(verticles), WITHIN));
    Context duplicate = ((ContextInternal) verticles).duplicate();
    assertTrue(OnContext.call(duplicate, () -> VerticleContext.isCurrent(verticles), WITHIN));
    assertTrue(VerticleContext.isSameContext(duplicate, verticles));
    assertEquals("a duplicate of the verticle's context", VerticleContext.describe(duplicate, verticles));
    assertEquals("the verticle's context", VerticleContext.describe(verticles, verticles));
    CompletableFuture<Boolean> periodic = new CompletableFuture<>();
    OnContext.run(verticles, () -> vertx.setPeriodic(1, id -> {
      vertx.cancelTimer(id);
      periodic.complete(VerticleContext.isCurrent(verticles));
    }), WITHIN);
    assertTrue(periodic.get(5, TimeUnit.SECONDS), "a setPeriodic handler runs on a duplicate of the context");
  }

  @Test
  @DisplayName("a worker inside executeBlocking, another context, and a thread with no context are not the verticle's")
  void workersAndOtherContextsAreNot() throws Exception {
    Context verticles = vertx.getOrCreateContext();
    boolean onWorker = OnContext.call(verticles, () -> vertx.executeBlocking(() -> VerticleContext.isCurrent(verticles)),
        WITHIN).toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
    assertFalse(onWorker, "executeBlocking's worker carries the verticle's context but is not its event loop");
    Context another = ((io.vertx.core.internal.VertxInternal) vertx).createEventLoopContext();
    assertFalse(OnContext.call(another, () -> VerticleContext.isCurrent(verticles), WITHIN));
    assertEquals("another Vert.x context than the verticle's", VerticleContext.describe(another, verticles));
    assertFalse(VerticleContext.isCurrent(verticles), "the test's own thread has no context");
    assertEquals("no Vert.x context", VerticleContext.describe(null, verticles));
  }
}
