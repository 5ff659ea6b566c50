package io.looplab.grader.leaks;

import io.vertx.core.Vertx;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The timers a Vert.x instance still has scheduled. Vert.x keeps them in a private map with no public view, so this
 * reads it by reflection; should a future Vert.x rename it, {@link #pendingTimers} says so instead of passing.
 */
final class TimerCensus {

  private TimerCensus() {
  }

  /** One description per scheduled timer whose handler is not Vert.x's or Netty's own. */
  static List<String> pendingTimers(Vertx vertx) {
    List<String> timers = new ArrayList<>();
    try {
      Field field = findField(vertx.getClass(), "timeouts");
      field.setAccessible(true);
      for (Object timer : ((Map<?, ?>) field.get(vertx)).values()) {
        Object handler = read(timer, "handler");
        boolean periodic = Boolean.TRUE.equals(read(timer, "periodic"));
        String owner = handler == null ? "unknown" : handler.getClass().getName();
        if (owner.startsWith("io.vertx.") || owner.startsWith("io.netty.")) {
          continue;
        }
        String shortOwner = owner.contains("$$Lambda") ? owner.substring(0, owner.indexOf("$$Lambda")) : owner;
        timers.add((periodic ? "a periodic timer" : "a one-shot timer") + " set in " + shortOwner);
      }
    } catch (ReflectiveOperationException | RuntimeException e) {
      timers.add("(the grader could not list Vert.x timers on this Vert.x version: " + e + ")");
    }
    return timers;
  }

  private static Object read(Object target, String name) throws ReflectiveOperationException {
    Field f = findField(target.getClass(), name);
    f.setAccessible(true);
    return f.get(target);
  }

  private static Field findField(Class<?> type, String name) throws NoSuchFieldException {
    for (Class<?> c = type; c != null; c = c.getSuperclass()) {
      try {
        return c.getDeclaredField(name);
      } catch (NoSuchFieldException ignored) {
        // look in the superclass
      }
    }
    throw new NoSuchFieldException(name);
  }
}
