package io.looplab.grader.sync;

import io.vertx.core.Context;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.ThreadingModel;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A context settles when every task it was given has run or is suspended; one that a task keeps never does. */
class ContextSettleTest {

  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() {
    vertx.close().toCompletionStage().toCompletableFuture().orTimeout(5, TimeUnit.SECONDS).join();
  }

  @Test
  @DisplayName("on an event loop, settle returns once the tasks queued by tasks have run")
  void eventLoopSettles() {
    Context context = vertx.getOrCreateContext();
    List<String> ran = new CopyOnWriteArrayList<>();
    context.runOnContext(v -> context.runOnContext(w -> context.runOnContext(x -> ran.add("third"))));
    assertTrue(ContextSettle.settle(context, Duration.ofSeconds(5)));
    assertEquals(List.of("third"), ran);
    assertTrue(ContextSettle.holder(context).isEmpty());
  }

  @Test
  @DisplayName("on a virtual-thread context, an await counts as settled, and a task that keeps the context is named")
  void virtualThreadContextSettlesOrNamesItsHolder() throws Exception {
    Context context = virtualThreadContext();
    Promise<String> answer = Promise.promise();
    List<String> ran = new CopyOnWriteArrayList<>();
    context.runOnContext(v -> ran.add(answer.future().await()));
    assertTrue(ContextSettle.settle(context, Duration.ofSeconds(5)), "a task suspended in await() frees the context");
    assertEquals(List.of(), ran);
    context.runOnContext(v -> answer.complete("resumed"));
    assertTrue(ContextSettle.settle(context, Duration.ofSeconds(5)));
    assertEquals(List.of("resumed"), ran, "settle waits for the continuation the completion queued");

    CountDownLatch kept = new CountDownLatch(1);
    context.runOnContext(v -> {
      try {
        kept.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    assertFalse(ContextSettle.settle(context, Duration.ofMillis(200)), "a latch waits while keeping the context");
    Thread holder = ContextSettle.holder(context).orElseThrow();
    assertTrue(ContextSettle.waitInWords(holder).contains("CountDownLatch.await"), ContextSettle.waitInWords(holder));
    assertFalse(ContextSettle.settleUnlessHeld(context, Duration.ofMillis(100), Duration.ofSeconds(5)),
        "a holder that waits itself is not waited for beyond the first bound");
    kept.countDown();
    assertTrue(ContextSettle.settle(context, Duration.ofSeconds(5)));

    context.runOnContext(v -> {
      long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300);
      while (System.nanoTime() < end) {
        Thread.onSpinWait();
      }
    });
    assertTrue(ContextSettle.settleUnlessHeld(context, Duration.ofMillis(50), Duration.ofSeconds(5)),
        "a holder that computes is progress: it is waited for up to the second bound");
  }

  private Context virtualThreadContext() throws Exception {
    Context[] found = new Context[1];
    Future<String> deployed = vertx.deployVerticle(new VerticleBase() {
      @Override
      public Future<?> start() {
        found[0] = context;
        return Future.succeededFuture();
      }
    }, new DeploymentOptions().setThreadingModel(ThreadingModel.VIRTUAL_THREAD));
    try {
      deployed.toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      Assumptions.abort("virtual threads need JDK 21 or newer: " + e.getCause().getMessage());
    }
    return found[0];
  }
}
