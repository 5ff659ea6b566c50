package io.looplab.beyond;

import java.time.Duration;

/** The time limits the two-process tests share, and why each is what it is. */
final class Limits {

  /** How long the test waits for what correct code does at once: a call to the test, an answer. */
  static final Duration WAIT = Duration.ofSeconds(15);

  /**
   * How long the second node may take to reach its check (or read) while the first node's is held, before the test
   * decides it is waiting for its turn. Measured: an unserialised node got there in 0 to 27 ms (load 2).
   */
  static final long TURN_MILLIS = 1_000;

  /**
   * How long a node may stay silent after the other node answered before the test calls it stuck (waiting for a
   * lock that nobody will release). A correct solution moves on at once, so only a broken one waits this out.
   */
  static final long STUCK_MILLIS = 3_000;

  /** How long both nodes of a pair may take to shut down. */
  static final Duration QUIT = Duration.ofSeconds(30);

  private Limits() {
  }
}
