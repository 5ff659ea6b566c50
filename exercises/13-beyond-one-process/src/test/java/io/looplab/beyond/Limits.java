package io.looplab.beyond;

import java.time.Duration;

/** The time limits the two-process tests share, and why each is what it is. */
final class Limits {

  /** How long the test waits for what correct code does at once: a call to the test, an answer. */
  static final Duration WAIT = Duration.ofSeconds(15);

  /**
   * How long the second node may take to reach its check (or read) while the first node's is held, before the test
   * decides it is waiting for its turn. Measured: an unserialised node got there in 0 to 27 ms (load 2). Every
   * serialising design pays this wait in every race, so it is short. A late node taken for a waiting one changes
   * only how the race is described: its call is then answered after the first node's, and a lost update still
   * shows, because the test then holds the first node's write and waits {@link #TURN_MILLIS} for that late call.
   */
  static final long OVERLAP_MILLIS = 300;

  /**
   * How long the second node may take to read once the first node's read is answered, while the first node's write
   * is still held. Only a lock let go before the write lets it read, after a hand-over between two processes, so
   * this wait is longer than {@link #OVERLAP_MILLIS}.
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
