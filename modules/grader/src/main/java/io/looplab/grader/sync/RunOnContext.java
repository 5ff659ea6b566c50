package io.looplab.grader.sync;

import io.vertx.core.Context;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs a step as one task of a Vert.x context (the learner's verticle's event loop, a gate's caller, a timer's
 * owner) and waits for it on the calling thread: the kit's one way to do it. The learner's code is then called where
 * Vert.x would call it, and the caller knows it has run. The waits throw their causes as checked exceptions, so that
 * each caller says in its own words what was late: a test step, a gate's completion, a timer's handler. Never call
 * it from {@code context} itself, which would wait for a task queued behind the caller.
 */
public final class RunOnContext {

  private RunOnContext() {
  }

  /**
   * Runs {@code step} on {@code context}, waits up to {@code within} for it and returns what it returned.
   *
   * @throws ExecutionException   the step threw; its cause is what it threw (the step's throw never reaches Vert.x)
   * @throws TimeoutException     the context did not run the step within {@code within}: busy or blocked
   * @throws InterruptedException the waiting thread was interrupted
   */
  public static <T> T call(Context context, Callable<T> step, Duration within)
      throws ExecutionException, TimeoutException, InterruptedException {
    CompletableFuture<T> done = new CompletableFuture<>();
    context.runOnContext(v -> {
      try {
        done.complete(step.call());
      } catch (Throwable t) {
        done.completeExceptionally(t);
      }
    });
    return done.get(within.toNanos(), TimeUnit.NANOSECONDS);
  }

  /**
   * Runs {@code step} on {@code context} and waits up to {@code within} for it to end. What the step throws is not
   * brought back: it reaches Vert.x (and so the guard's "exception nobody handled") as from any task, which is right
   * for the learner's code called back, as a continuation or a timer's handler is in production.
   *
   * @throws TimeoutException     the context did not run the step within {@code within}: busy or blocked
   * @throws InterruptedException the waiting thread was interrupted
   */
  public static void run(Context context, Runnable step, Duration within)
      throws TimeoutException, InterruptedException {
    CompletableFuture<Void> ran = new CompletableFuture<>();
    context.runOnContext(v -> {
      try {
        step.run();
      } finally {
        ran.complete(null);
      }
    });
    try {
      ran.get(within.toNanos(), TimeUnit.NANOSECONDS);
    } catch (ExecutionException cannotHappen) {
      throw new IllegalStateException(cannotHappen); // the future is only ever completed normally
    }
  }
}
