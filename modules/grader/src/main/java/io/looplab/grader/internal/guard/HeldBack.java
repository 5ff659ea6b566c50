package io.looplab.grader.internal.guard;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * The calls of the code under test that the current test answers itself (the sync package's gates), so that a test
 * that runs out of time can say which of them it was still holding back. One per {@link GuardSession}, forgotten as
 * each test starts.
 */
public final class HeldBack {

  /** More calls than any test makes: beyond it the oldest are dropped, so a long class stays small. */
  private static final int MOST = 1_000;
  private final List<Call> calls = new ArrayList<>();

  private record Call(BooleanSupplier pending, String description) {
  }

  HeldBack() {
  }

  /**
   * A call whose answer the test holds: {@code argument} is what the code passed (or null), {@code callSite} where it
   * called from (or null), and {@code pending} says whether the test still holds the answer back. Outside a guarded
   * test class there is no one to tell, and the call is not kept.
   */
  public static void called(Object argument, String callSite, BooleanSupplier pending) {
    GuardSession.ifOpen(session -> session.heldBack().add(new Call(pending, (argument == null ? "a call"
        : "the call with " + argument) + (callSite == null ? "" : " from " + callSite)
        + ", whose answer the test had not released")));
  }

  private synchronized void add(Call call) {
    if (calls.size() == MOST) {
      calls.remove(0);
    }
    calls.add(call);
  }

  /** A new test starts: the calls of the one before are not its business. */
  synchronized void forget() {
    calls.clear();
  }

  /** One phrase per call still held back, in the order the calls were made. */
  synchronized List<String> describe() {
    return calls.stream().filter(call -> call.pending().getAsBoolean()).map(Call::description).toList();
  }
}
