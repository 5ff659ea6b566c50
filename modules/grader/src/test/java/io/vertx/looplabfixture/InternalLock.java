package io.vertx.looplabfixture;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Stands in for a lock that Vert.x takes and holds inside its own code (the shared-server map that several instances
 * bind one port through): it lives in an {@code io.vertx} package for the guard's tests only.
 */
public final class InternalLock {

  private static final Object LOCK = new Object();

  private InternalLock() {
  }

  /** Enters the lock for a moment, as Vert.x's listen() does. */
  public static void enter() {
    synchronized (LOCK) {
      LOCK.notifyAll();
    }
  }

  /** Holds the lock, waiting inside Vert.x's own code, until {@code release} opens or {@code atMostMillis} pass. */
  public static void holdUntil(CountDownLatch held, CountDownLatch release, long atMostMillis)
      throws InterruptedException {
    synchronized (LOCK) {
      held.countDown();
      release.await(atMostMillis, TimeUnit.MILLISECONDS);
    }
  }
}
