package io.looplab.grader.sync;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Timers fire when the test moves the clock, in due order, on the context that set them, and never once cancelled. */
class ManualClockTest {

  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() {
    vertx.close().await();
  }

  private static void on(Context context, Runnable step) throws Exception {
    CompletableFuture<Void> done = new CompletableFuture<>();
    context.runOnContext(v -> {
      step.run();
      done.complete(null);
    });
    done.get(5, TimeUnit.SECONDS);
  }

  @Test
  @DisplayName("nothing fires until the clock moves; then each timer fires when due, in order, on its own context")
  void firesInDueOrderOnItsContext() throws Exception {
    ManualClock clock = new ManualClock();
    Context context = vertx.getOrCreateContext();
    List<String> log = new CopyOnWriteArrayList<>();
    long[] periodic = new long[1];
    on(context, () -> {
      periodic[0] = clock.setPeriodic(100, id -> log.add("tick@" + clock.now() + "/" + (Vertx.currentContext() == context)));
      clock.setTimer(250, id -> log.add("once@" + clock.now()));
    });
    assertEquals(List.of(), log, "nothing fires before the clock moves");
    clock.advance(Duration.ofMillis(99));
    assertEquals(List.of(), log);
    clock.advance(Duration.ofMillis(201));
    assertEquals(List.of("tick@100/true", "tick@200/true", "once@250", "tick@300/true"), log);
    assertEquals(2, clock.pending().size() + 1, "the one-shot timer is no longer pending, the periodic one is");
    assertTrue(clock.cancelTimer(periodic[0]));
    assertFalse(clock.cancelTimer(periodic[0]), "a timer cancels once");
    clock.advance(Duration.ofSeconds(10));
    assertEquals(4, log.size(), "a cancelled timer never fires again");
    assertEquals(List.of(), clock.pending());
    assertEquals(10_300, clock.now());
  }

  @Test
  @DisplayName("a timer set while the clock moves fires in the same move when it falls due within it; the work a "
      + "handler queues has run when advance returns")
  void timersSetOnTheWayFireOnTheWay() throws Exception {
    ManualClock clock = new ManualClock();
    Context context = vertx.getOrCreateContext();
    List<Long> log = new CopyOnWriteArrayList<>();
    on(context, () -> clock.setTimer(100, id -> clock.setTimer(100, id2 -> context.runOnContext(v -> context
        .runOnContext(w -> log.add(clock.now()))))));
    clock.advance(Duration.ofMillis(250));
    assertEquals(List.of(200L), log);
    assertTrue(clock.all().get(0).toString().startsWith("a one-shot timer of 100 ms, set at t=0 ms"),
        clock.all().get(0).toString());
  }
}
