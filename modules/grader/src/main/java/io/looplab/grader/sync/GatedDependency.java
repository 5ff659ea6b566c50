package io.looplab.grader.sync;

import io.vertx.core.Future;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * A fake async dependency (an availability check, a payment service, a slow backend) whose every call hands back
 * a {@link Gate}. The code under test calls {@link #apply}; the test waits for the calls it expects with
 * {@link #awaitCalls(int)} and then releases them in the order it chooses. No sleeps, no timing: the interleaving
 * is exactly the one the test asked for.
 *
 * @param <A> what the code passes in
 * @param <T> what the dependency answers
 */
public final class GatedDependency<A, T> implements Function<A, Future<T>> {

  private static final long CALL_TIMEOUT_SECONDS = 10;

  private final List<Gate<T>> gates = new ArrayList<>();
  private final Signal called = new Signal();

  /**
   * Makes a call: hands back the future of a new {@link Gate}, pending until the test releases it. Records where the
   * code under test made the call ({@link #callSite(int)}, {@link Gate#callSite()}).
   */
  @Override
  public Future<T> apply(A argument) {
    Gate<T> gate = new Gate<>(argument, CallSite.ofCurrentCall().orElse(null));
    synchronized (gates) {
      gates.add(gate);
    }
    called.fire();
    return gate.future();
  }

  /** Waits until at least {@code count} calls have been made, and returns the first {@code count} gates. */
  public List<Gate<T>> awaitCalls(int count) {
    return awaitCalls(count, TimeUnit.SECONDS.toMillis(CALL_TIMEOUT_SECONDS));
  }

  /**
   * Waits up to {@code timeoutMillis} for {@code count} calls. The wait ends as soon as they arrive; only code that
   * never makes the call (say, because a lock was never released) pays the whole timeout.
   *
   * @throws AssertionError if fewer calls arrived in time; catch it to explain what it means for the exercise
   */
  public List<Gate<T>> awaitCalls(int count, long timeoutMillis) {
    if (!arrivesWithin(count, timeoutMillis)) {
      throw new AssertionError("Expected " + count + " call(s) to the dependency, but only " + calls()
          + " arrived within " + timeoutMillis + " ms. Is a call waiting for another to finish first?");
    }
    synchronized (gates) {
      return List.copyOf(gates.subList(0, count));
    }
  }

  /**
   * Waits up to {@code timeoutMillis} until {@code count} calls have been made, and says whether they were. For a
   * test that accepts both answers: "the call came" and "the call waits its turn" can each be right.
   */
  public boolean arrivesWithin(int count, long timeoutMillis) {
    return called.await(() -> calls() >= count, timeoutMillis);
  }

  /** The gates of every call made so far, in call order, without waiting. */
  public List<Gate<T>> calledSoFar() {
    synchronized (gates) {
      return List.copyOf(gates);
    }
  }

  /** How many calls have been made so far. */
  public int calls() {
    synchronized (gates) {
      return gates.size();
    }
  }

  /**
   * Where the code under test was when it made call number {@code index} (from 0): the learner's method and line, as
   * {@code "reserve() at SeatCounter.java:41"}, decided as the guard decides it ({@link CallSite}). Empty when no
   * frame of the code under test was on the stack. Does not wait: the call must have been made.
   *
   * @throws IndexOutOfBoundsException if fewer calls have been made
   */
  public Optional<String> callSite(int index) {
    synchronized (gates) {
      return gates.get(index).callSite();
    }
  }

  /** The call sites of every call made so far, in call order ({@code "(unknown)"} where none was found). */
  public List<String> callSites() {
    return calledSoFar().stream().map(g -> g.callSite().orElse("(unknown)")).toList();
  }

  /** The gate for call number {@code index} (from 0), waiting for that call if it has not happened yet. */
  public Gate<T> call(int index) {
    return awaitCalls(index + 1).get(index);
  }
}
