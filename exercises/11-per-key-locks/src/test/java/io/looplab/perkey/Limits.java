package io.looplab.perkey;

import java.time.Duration;

/** The time limits the per-key lock tests share, and why each is what it is. */
final class Limits {

  /**
   * How long the test waits for something a correct solution does within milliseconds: a payment call, the end of
   * a booking, an HTTP answer. Only a broken solution ever waits it out.
   */
  static final long WAIT_MILLIS = 3_000;
  static final Duration WAIT = Duration.ofMillis(WAIT_MILLIS);

  /** The lock timeout where bookings should wait for their turn: longer than any test runs. */
  static final long PATIENT_LOCK_MILLIS = 10_000;

  /**
   * The lock timeout of the tests that look for a lock left held: there, the next booking never waits for a lock
   * that works, and one left held shows up after this time as EventBusyException, instead of as a hang.
   */
  static final long LEAK_LOCK_MILLIS = 1_000;

  /** The lock timeout of the timeout tests; the tests never sleep through it, a timer of the solution does. */
  static final long SHORT_LOCK_MILLIS = 200;

  /** How long the timeout tests wait for the 503: fifteen times the lock timeout. */
  static final long BUSY_ANSWER_MILLIS = 3_000;

  /**
   * Event-loop turns the test lets pass before it checks that a booking did not move on: a solution's own hops
   * (a lock granted on a later turn, a promise chained through the context) finish within them. It is a drain of
   * the loop's queue, not a sleep.
   */
  static final int SETTLE_TURNS = 5;

  private Limits() {
  }
}
