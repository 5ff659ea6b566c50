package io.looplab.perkey;

import io.looplab.grader.sync.Gate;
import io.looplab.grader.sync.GatedDependency;
import io.looplab.grader.sync.Signal;
import io.looplab.grader.sync.ThrownThrough;
import io.vertx.core.Future;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A payment service whose every call waits until the test approves ({@code open}) or declines ({@code fail}) it,
 * through a {@link GatedDependency}. It can also be told to throw on its next call, as a client that is not
 * configured does.
 */
final class HeldPayments implements PaymentService {

  final GatedDependency<Charge, Void> gated = new GatedDependency<>();
  final Signal signal;
  private volatile RuntimeException throwNext;
  private volatile boolean approveEverything;
  private final AtomicInteger throwsDone = new AtomicInteger();
  /** Where the last exception thrown on purpose went up through the learner's code. */
  final ThrownThrough thrownThrough = new ThrownThrough();

  HeldPayments(Signal signal) {
    this.signal = signal;
  }

  @Override
  public Future<Void> authorize(String eventId, int seat) {
    RuntimeException toThrow = throwNext;
    if (toThrow != null) {
      throwNext = null;
      throwsDone.incrementAndGet();
      signal.fire();
      throw thrownThrough.record(toThrow);
    }
    if (approveEverything) {
      return Future.succeededFuture();
    }
    Future<Void> answer = gated.apply(new Charge(eventId, seat));
    signal.fire();
    return answer;
  }

  void throwOnNextCall(RuntimeException error) {
    throwNext = error;
  }

  int throwsDone() {
    return throwsDone.get();
  }

  /** Calls that are waiting for, or got, the test's answer; a call that threw is not one of them. */
  int calls() {
    return gated.calls();
  }

  List<Gate<Void>> gates(int count) {
    return gated.awaitCalls(count);
  }

  List<Charge> charges() {
    return gated.calledSoFar().stream().map(g -> (Charge) g.argument()).toList();
  }

  List<String> events() {
    return charges().stream().map(Charge::eventId).toList();
  }

  /**
   * Approves every pending call, and every later one at once: for the end of a test, so that a failed test
   * leaves no booking, and no lock, waiting on the event loop.
   */
  void releaseEverything() {
    approveEverything = true;
    for (Gate<Void> gate : gated.calledSoFar()) {
      if (gate.isPending()) {
        try {
          gate.open(null);
        } catch (RuntimeException e) {
          // Answered meanwhile, or its loop is gone: nothing left to free.
        }
      }
    }
  }
}
