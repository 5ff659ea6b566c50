package io.looplab.grader.sync;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One pending completion that the test decides: the code under test waits on {@link #future()}, and the test
 * releases it with {@link #open(Object)} or {@link #fail(Throwable)} exactly when it wants. The completion runs on
 * the context that asked for the gate, as a real async reply would, and the release waits until it has run.
 *
 * @param <T> the value the dependency produces
 */
public final class Gate<T> {

  private static final long RELEASE_TIMEOUT_SECONDS = 10;

  private final Object argument;
  private final Context context;
  private final Promise<T> promise = Promise.promise();

  Gate(Object argument) {
    this.argument = argument;
    this.context = Vertx.currentContext();
  }

  /** A gate for whatever context calls this; the gate's future completes there. */
  public static <T> Gate<T> create() {
    return new Gate<>(null);
  }

  /** What the code under test passed when it made the call that this gate answers. */
  public Object argument() {
    return argument;
  }

  public Future<T> future() {
    return promise.future();
  }

  public boolean isPending() {
    return !promise.future().isComplete();
  }

  /** Completes the gate with {@code value} and returns once the code's continuation has run. */
  public void open(T value) {
    release(() -> promise.complete(value));
  }

  /** Fails the gate with {@code error} and returns once the code's continuation has run. */
  public void fail(Throwable error) {
    release(() -> promise.fail(error));
  }

  private void release(Runnable completion) {
    if (!isPending()) {
      throw new IllegalStateException("This gate was already released: a gate answers one call, once.");
    }
    if (context == null) {
      completion.run();
      return;
    }
    CompletableFuture<Void> ran = new CompletableFuture<>();
    context.runOnContext(v -> {
      try {
        completion.run();
      } finally {
        ran.complete(null);
      }
    });
    try {
      ran.get(RELEASE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("The event loop did not run the gate's completion within "
          + RELEASE_TIMEOUT_SECONDS + " s: is it blocked?", e);
    }
  }

  @Override
  public String toString() {
    return "Gate(" + argument + (isPending() ? ", pending)" : ", released)");
  }
}
