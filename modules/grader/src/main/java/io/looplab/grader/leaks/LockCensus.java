package io.looplab.grader.leaks;

import io.vertx.core.Vertx;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The local locks ({@code sharedData().getLocalLock...}) that are held right now. Vert.x keeps, per lock name, the
 * queue of its holder and waiters, and drops the name when nobody holds or waits for it any more.
 */
public final class LockCensus {

  private LockCensus() {
  }

  /** One description per held local lock, with how many callers wait for it. */
  public static List<String> heldLocalLocks(Vertx vertx) {
    List<String> held = new ArrayList<>();
    try {
      Object locks = Internals.field(vertx.sharedData(), "localAsyncLocks");
      ((Map<?, ?>) Internals.field(locks, "waitersMap")).forEach((name, queue) -> {
        if (queue instanceof List<?> list && !list.isEmpty()) {
          held.add("the local lock '" + name + "'"
              + (list.size() > 1 ? " (with " + (list.size() - 1) + " caller(s) waiting for it)" : ""));
        }
      });
    } catch (ReflectiveOperationException | RuntimeException e) {
      held.add("(the grader could not list local locks on this Vert.x version: " + e + ")");
    }
    return held;
  }
}
