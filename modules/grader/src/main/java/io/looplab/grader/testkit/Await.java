package io.looplab.grader.testkit;

import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.eventbus.Message;
import org.opentest4j.AssertionFailedError;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Waits for a Vert.x future on the test's own thread, never on an event loop, for a bounded time. When the future is
 * late, the test fails with the message the test wrote for that case, {@code ifLate}: it knows what the wait was for
 * and what a learner should look at; the grader's report adds what was still pending then (which request had no
 * answer, which lock was held). One wording is shared by every test for the other outcomes.
 */
public final class Await {

  private Await() {
  }

  /** The future's result; fails with {@code ifLate} when it is not complete in time, or names the failure it got. */
  public static <T> T result(Future<T> future, Duration within, String ifLate) {
    AsyncResult<T> outcome = outcome(future, within, ifLate);
    if (outcome.failed()) {
      throw new AssertionFailedError("Expected an answer, but got the failure " + outcome.cause(), outcome.cause());
    }
    return outcome.result();
  }

  /** Every future's result, in order, within one shared time limit. */
  public static <T> List<T> results(List<? extends Future<T>> futures, Duration within, String ifLate) {
    long deadline = System.nanoTime() + within.toNanos();
    List<T> results = new ArrayList<>();
    for (Future<T> future : futures) {
      results.add(result(future, Duration.ofNanos(Math.max(0, deadline - System.nanoTime())), ifLate));
    }
    return results;
  }

  /**
   * The failure the future ended with. When it succeeded instead, fails with {@code ifAnswered}, a format whose
   * {@code %s} receives the answer (a message's body for an event-bus reply).
   */
  public static Throwable failure(Future<?> future, Duration within, String ifLate, String ifAnswered) {
    AsyncResult<?> outcome = outcome(future, within, ifLate);
    if (outcome.succeeded()) {
      Object value = outcome.result();
      throw new AssertionFailedError(String.format(ifAnswered, value instanceof Message<?> m ? m.body() : value));
    }
    return outcome.cause();
  }

  /** The future's outcome, a result or a failure alike: for tests that only need an answer of some kind. */
  public static <T> AsyncResult<T> outcome(Future<T> future, Duration within, String ifLate) {
    try {
      T value = future.toCompletionStage().toCompletableFuture().get(within.toNanos(), TimeUnit.NANOSECONDS);
      return Future.succeededFuture(value);
    } catch (TimeoutException e) {
      throw new Late(ifLate);
    } catch (ExecutionException e) {
      return Future.failedFuture(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionFailedError("The test was interrupted while it waited: " + ifLate, e);
    }
  }

  /** The failure of a wait that ran out of time: the test's own words for it, {@code ifLate}. */
  public static final class Late extends AssertionFailedError {
    public Late(String ifLate) {
      super(ifLate);
    }
  }

  /** "8 s" or "300 ms": how a message says a time limit. */
  public static String inWords(Duration limit) {
    long millis = limit.toMillis();
    return millis % 1000 == 0 ? millis / 1000 + " s" : millis + " ms";
  }
}
