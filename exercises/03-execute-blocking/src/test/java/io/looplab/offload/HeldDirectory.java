package io.looplab.offload;

import io.looplab.grader.sync.Signal;
import io.looplab.vendor.LegacyDirectory;
import io.looplab.vendor.LegacyDirectoryException;
import io.vertx.core.Context;
import org.opentest4j.AssertionFailedError;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.BooleanSupplier;

/**
 * A fake legacy directory. Each call blocks the thread that makes it, as the real client does, until the test
 * answers it with {@link #answer} or {@link #fail}; meanwhile the test sees which calls are in progress and on
 * which threads. Like the real directory it refuses a call beyond {@link LegacyDirectory#MAX_CONNECTIONS} at once.
 * A call made on an event loop fails at once.
 */
final class HeldDirectory implements LegacyDirectory {

  private final Map<String, CompletableFuture<String>> outcomes = new HashMap<>();
  private final Map<String, String> inFlight = new LinkedHashMap<>(); // user id -> thread, in order of arrival
  private final List<String> threads = new ArrayList<>();
  /** Fired whenever a call starts, ends or is answered, so that the test re-checks what it waits for. */
  private final Signal changed = new Signal();
  private String refusal;
  private volatile String eventLoopCall;
  private boolean answerEverything;

  static String nameOf(String userId) {
    return Character.toUpperCase(userId.charAt(0)) + userId.substring(1) + " (from the directory)";
  }

  @Override
  public String displayName(String userId) throws LegacyDirectoryException {
    CompletableFuture<String> outcome;
    try {
      outcome = arrive(userId);
    } finally {
      changed.fire();
    }
    try {
      return outcome.get(); // the blocking call; on an event loop the guard catches it here
    } catch (ExecutionException e) {
      throw (LegacyDirectoryException) e.getCause();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LegacyDirectoryException("interrupted while waiting for the directory");
    } finally {
      synchronized (this) {
        inFlight.remove(userId);
      }
      changed.fire();
    }
  }

  /** Notes a call as it arrives, and gives it the outcome the test will complete; refuses what the directory would. */
  private synchronized CompletableFuture<String> arrive(String userId) throws LegacyDirectoryException {
    String thread = Thread.currentThread().getName();
    threads.add(thread);
    if (Context.isOnEventLoopThread()) {
      // Refuse at once rather than block: the test then knows for sure, with no race against the guard, and
      // the loop is not held up. Thrown as an Error, like the guard's own, so that no catch of the code hides it.
      eventLoopCall = "Blocking call on the event loop: " + LearnerCall.here() + " (thread " + thread + "). The "
          + "directory's client blocks the calling thread until the directory "
          + "answers, often for seconds, and an event loop serves every request with one thread: run the call "
          + "on a worker thread, with executeBlocking or a worker executor.";
      throw new AssertionFailedError(eventLoopCall);
    }
    if (inFlight.size() >= MAX_CONNECTIONS) {
      refusal = "the call for '" + userId + "' came while " + inFlight.size() + " calls were in progress";
      throw new LegacyDirectoryException("too many connections: the directory serves at most "
          + MAX_CONNECTIONS + " calls at once");
    }
    CompletableFuture<String> outcome = outcomes.computeIfAbsent(userId, id -> new CompletableFuture<>());
    if (answerEverything) {
      outcome.complete(nameOf(userId));
    }
    inFlight.put(userId, thread);
    return outcome;
  }

  /** Answers the call for {@code userId} (now, or as soon as it is made) with that user's name. */
  void answer(String userId) {
    outcomeOf(userId).complete(nameOf(userId));
    changed.fire();
  }

  /** Fails the call for {@code userId} with a {@link LegacyDirectoryException} carrying {@code reason}. */
  void fail(String userId, String reason) {
    outcomeOf(userId).completeExceptionally(new LegacyDirectoryException(reason));
    changed.fire();
  }

  private synchronized CompletableFuture<String> outcomeOf(String userId) {
    return outcomes.computeIfAbsent(userId, id -> new CompletableFuture<>());
  }

  /** Answers every call made so far, and every later one at once: for the end of a test. */
  synchronized void answerAll() {
    answerEverything = true;
    outcomes.forEach((userId, outcome) -> outcome.complete(nameOf(userId)));
  }

  /** Waits until {@code n} calls are in progress at the same time; false if that did not happen in time. */
  boolean awaitInFlight(int n, Duration within) {
    return awaitUntil(() -> inFlight().size() >= n, within);
  }

  /** Waits for a call in progress that the test has not answered yet, and names its user. */
  Optional<String> awaitUnansweredCall(Duration within) {
    awaitUntil(() -> unanswered().isPresent(), within);
    return unanswered();
  }

  private synchronized Optional<String> unanswered() {
    return inFlight.keySet().stream().filter(id -> !outcomes.get(id).isDone()).findFirst();
  }

  /** Waits until {@code condition} holds; a call made on an event loop fails the test at once. */
  private boolean awaitUntil(BooleanSupplier condition, Duration within) {
    boolean met = changed.await(() -> eventLoopCall != null || condition.getAsBoolean(), within.toMillis());
    if (eventLoopCall != null) {
      throw new AssertionFailedError(eventLoopCall);
    }
    return met;
  }

  synchronized List<String> inFlight() {
    return List.copyOf(inFlight.keySet());
  }

  synchronized List<String> threads() {
    return List.copyOf(threads);
  }

  synchronized Optional<String> refusal() {
    return Optional.ofNullable(refusal);
  }
}
