package io.looplab.grader.races;

import io.vertx.core.Vertx;

import java.lang.reflect.Field;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

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
    Map<String, Integer> held = new TreeMap<>();
    try {
      Object locks = field(vertx.sharedData(), "localAsyncLocks");
      ((Map<?, ?>) field(locks, "waitersMap")).forEach((name, queue) -> {
        if (queue instanceof List<?> list && !list.isEmpty()) {
          held.put(String.valueOf(name), list.size() - 1);
        }
      });
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new IllegalStateException("the grader could not list local locks on this Vert.x version: " + e, e);
    }
    return held;
  }

  /** Like {@link #held}, but an empty map when Vert.x cannot be read: for a message that only adds evidence. */
  public static Map<String, Integer> heldOrNone(Vertx vertx) {
    try {
      return held(vertx);
    } catch (IllegalStateException e) {
      return Map.of();
    }
  }

  private static Object field(Object target, String name) throws ReflectiveOperationException {
    for (Class<?> c = target.getClass(); c != null; c = c.getSuperclass()) {
      try {
        Field f = c.getDeclaredField(name);
        f.setAccessible(true);
        return f.get(target);
      } catch (NoSuchFieldException ignored) {
        // look in the superclass
      }
    }
    throw new NoSuchFieldException(name);
  }
}
