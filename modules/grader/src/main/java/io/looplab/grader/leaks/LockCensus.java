package io.looplab.grader.leaks;

import io.looplab.grader.internal.leaks.LocalLocks;
import io.vertx.core.Vertx;

import java.util.List;
import java.util.Map;

/**
 * The local locks ({@code sharedData().getLocalLock...}) that are held right now. Vert.x keeps, per lock name, the
 * queue of its holder and waiters, and drops the name when nobody holds or waits for it any more.
 */
public final class LockCensus {

  private LockCensus() {
  }

  /**
   * Each held local lock's name, mapped to the number of callers waiting for it (0 when only held), sorted by name.
   * Throws {@link IllegalStateException}, saying so, should a future Vert.x rename the map it keeps them in.
   */
  public static Map<String, Integer> heldLocalLockNames(Vertx vertx) {
    return LocalLocks.held(vertx);
  }

  /** One description per held local lock, with how many callers wait for it. */
  public static List<String> heldLocalLocks(Vertx vertx) {
    return LocalLocks.describeHeld(vertx);
  }
}
