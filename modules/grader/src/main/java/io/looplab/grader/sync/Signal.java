package io.looplab.grader.sync;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A condition a test waits for, re-checked each time something it depends on changes. The code under test (or a fake
 * it calls) {@link #fire}s when it changes something; the test {@link #await}s the condition with a bound that only
 * broken code ever reaches. No polling and no sleeps: the test wakes up the moment the condition can have changed.
 */
public final class Signal {

  /** Something changed: every waiting test re-checks its condition. Safe from any thread. */
  public synchronized void fire() {
    notifyAll();
  }

  /** Waits until {@code condition} holds, or {@code millis} pass; true if it holds. */
  public synchronized boolean await(BooleanSupplier condition, long millis) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    while (!condition.getAsBoolean()) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      try {
        TimeUnit.NANOSECONDS.timedWait(this, left);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return true;
  }
}
