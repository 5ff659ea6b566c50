package io.looplab.grader.internal.leaks;

import io.vertx.core.Vertx;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The local locks ({@code sharedData().getLocalLock...}) held right now. Vert.x keeps, per lock name, the queue of its
 * holder and waiters, and drops the name when nobody holds or waits for it any more.
 */
public final class LocalLocks {

  private LocalLocks() {
  }

  /**
   * Each held local lock's name, mapped to the number of callers waiting for it (0 when only held), sorted by name.
   * Throws {@link IllegalStateException}, saying so, should a future Vert.x rename the map it keeps them in.
   */
  public static Map<String, Integer> held(Vertx vertx) {
    Map<String, Integer> held = new TreeMap<>();
    try {
      Object locks = Internals.field(vertx.sharedData(), "localAsyncLocks");
      ((Map<?, ?>) Internals.field(locks, "waitersMap")).forEach((name, queue) -> {
        if (queue instanceof List<?> list && !list.isEmpty()) {
          held.put(String.valueOf(name), list.size() - 1);
        }
      });
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new IllegalStateException("the grader could not list local locks on this Vert.x version: " + e, e);
    }
    return held;
  }

  /** One description per held local lock, with how many callers wait for it. */
  public static List<String> describeHeld(Vertx vertx) {
    List<String> held = new ArrayList<>();
    try {
      held(vertx).forEach((name, waiting) -> held.add("the local lock '" + name + "'"
          + (waiting > 0 ? " (with " + waiting + " caller(s) waiting for it)" : "")));
    } catch (IllegalStateException e) {
      held.add("(" + e.getMessage() + ")");
    }
    return held;
  }
}
