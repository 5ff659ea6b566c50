package io.looplab.manyloops;

import java.time.Duration;

/** The sizes and time limits the page-statistics tests share, and why each is what it is. */
final class Limits {

  /** Instances deployed. Vert.x has two event loops per core: from 2 cores up, each instance gets a loop of its own. */
  static final int INSTANCES = 4;

  /**
   * Views each instance counts in one round of a race test: 100,000, the least at which a plain long or a HashMap
   * lost views on every run of a quiet 2-core machine (at 10,000 a run could lose nothing).
   */
  static final int VIEWS_PER_INSTANCE = 100_000;

  /**
   * How long, in all, the loops must have been seen counting at the same moment before a race test trusts a result
   * with nothing lost. Measured with a plain static long on a crowded 2-core machine: 1.3 to 40 views lost per
   * millisecond of such overlap (a HashMap loses far more). A static long guarded by {@code synchronized (this)}
   * (each instance its own monitor) loses far fewer: with 10 ms it once lost nothing in about six runs, which puts
   * it near 0.2 views per millisecond. 60 ms leave it a chance of about one in 50,000 to lose nothing.
   * A quiet machine gives that in a round or two. A crowded one, where the four loops may take turns on one core,
   * takes more rounds (see {@link BatchLog}).
   */
  static final long MIN_PARALLEL_MILLIS = 60;

  /**
   * The most time a race test starts new rounds in, and the most rounds. A round takes 30 to 800 ms on a crowded
   * 2-core machine; with a few other builds running there, 40 rounds once went by without a single millisecond of
   * the loops side by side. A machine that busy for the whole budget cannot show a race either way, and the test
   * then accepts what it saw. A single-owner design, whose instances do little each, can also take the budget.
   */
  static final long RACE_BUDGET_SECONDS = 10;
  static final int MAX_ROUNDS = 200;

  /**
   * Views per batch. Each batch is one task on one event loop, so it must stay far below the guard's 50 ms stall
   * limit: 1,000 views take well under a millisecond once the JIT compiler has run. Before the race, smaller
   * batches ({@link #WARM_UP_BATCH_SIZE}) get the code compiled, since interpreted code is tens of times slower.
   */
  static final int BATCH_SIZE = 1_000;
  static final int WARM_UP_BATCHES = 200;
  static final int WARM_UP_BATCH_SIZE = 100;

  /** Pages each race test counts views of: few, so that the loops keep hitting the same counts. */
  static final int PAGES = 8;

  /** How long the test waits for something a correct solution does in milliseconds: a reply, a deployment. */
  static final long WAIT_SECONDS = 5;
  static final Duration WAIT = Duration.ofSeconds(WAIT_SECONDS);

  /** How long the test waits for the batches of one round to be counted; well under a second is typical. */
  static final long RACE_WAIT_SECONDS = 15;
  static final Duration RACE_WAIT = Duration.ofSeconds(RACE_WAIT_SECONDS);

  private Limits() {
  }
}
