package io.looplab.grader.races;

import io.looplab.grader.leaks.LockCensus;
import io.vertx.core.Vertx;

import java.util.Map;

/**
 * The names of the local locks ({@code sharedData().getLocalLock...}, {@code withLocalLock}) held right now, with how
 * many callers wait for each: the evidence a race test needs to tell "two callers took one lock" from "each took a
 * lock of its own name". Vert.x keeps them in a private map; should a future Vert.x rename it, {@link #held} throws
 * {@link IllegalStateException}, saying so, rather than answering "none".
 */
public final class LocalLockNames {

  private LocalLockNames() {
  }

  /** Each held local lock's name, mapped to the number of callers waiting for it (0 when only held). Sorted. */
  public static Map<String, Integer> held(Vertx vertx) {
    return LockCensus.heldLocalLockNames(vertx);
  }

  /** Like {@link #held}, but an empty map when Vert.x cannot be read: for a message that only adds evidence. */
  public static Map<String, Integer> heldOrNone(Vertx vertx) {
    try {
      return held(vertx);
    } catch (IllegalStateException e) {
      return Map.of();
    }
  }
}
