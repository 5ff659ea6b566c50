package io.looplab.grader.testkit;

import io.vertx.core.Context;
import org.opentest4j.AssertionFailedError;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs a step of the test on a given context (the learner's verticle's event loop, say) and waits for it on the
 * test's thread. The learner's code is called where Vert.x would call it, and what the step throws fails the test as
 * if the test had thrown it.
 */
public final class OnContext {

  private OnContext() {
  }

  /** Runs {@code step} on {@code context} and waits until it has run. */
  public static void run(Context context, Runnable step, Duration within) {
    call(context, () -> {
      step.run();
      return null;
    }, within);
  }

  /** Runs {@code step} on {@code context} and returns what it returned. */
  public static <T> T call(Context context, Callable<T> step, Duration within) {
    CompletableFuture<T> done = new CompletableFuture<>();
    context.runOnContext(v -> {
      try {
        done.complete(step.call());
      } catch (Throwable t) {
        done.completeExceptionally(t);
      }
    });
    try {
      return done.get(within.toNanos(), TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      Throwable thrown = e.getCause();
      if (thrown instanceof RuntimeException unchecked) {
        throw unchecked;
      }
      if (thrown instanceof Error error) {
        throw error;
      }
      throw new AssertionFailedError("The step the test ran on the event loop threw " + thrown, thrown);
    } catch (TimeoutException e) {
      throw new AssertionFailedError("The event loop did not run the test's step within " + Await.inWords(within)
          + ": something is keeping it busy or blocked.");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionFailedError("The test was interrupted while the event loop ran its step", e);
    }
  }
}
