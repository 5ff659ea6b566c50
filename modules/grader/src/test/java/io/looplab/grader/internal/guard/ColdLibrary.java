package io.looplab.grader.internal.guard;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A library that is slow to initialise, the way Netty's bootstrap is on a cold JVM: its static initialiser computes
 * until the test lets it go. Outside the watched package, so that its frames are library code, not the learner's.
 */
final class ColdLibrary {

  /**
   * The test's hold on the initialiser, in a class of its own: touching a field of ColdLibrary itself would run the
   * initialiser on the test's thread.
   */
  static final class Gate {
    static final AtomicBoolean INITIALISED = new AtomicBoolean();
    static final CountDownLatch INITIALISING = new CountDownLatch(1);

    private Gate() {
    }
  }

  static {
    Gate.INITIALISING.countDown();
    long x = 0;
    while (!Gate.INITIALISED.get()) {
      x += System.nanoTime() % 7;
    }
    SINK = x;
  }

  static final long SINK;

  private ColdLibrary() {
  }

  /** Touching the class runs its initialiser, once per JVM. */
  static long use() {
    return SINK;
  }
}
