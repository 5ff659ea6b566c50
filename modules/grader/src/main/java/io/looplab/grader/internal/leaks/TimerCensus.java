package io.looplab.grader.internal.leaks;

import io.vertx.core.Vertx;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The timers a Vert.x instance still has scheduled. Vert.x keeps them in a private map with no public view, so this
 * reads it by reflection; should a future Vert.x rename it, {@link #pendingTimers} says so instead of passing.
 */
public final class TimerCensus {

  private TimerCensus() {
  }

  /** One description per scheduled timer whose handler is not Vert.x's or Netty's own. */
  public static List<String> pendingTimers(Vertx vertx) {
    List<String> timers = new ArrayList<>();
    try {
      for (Object timer : ((Map<?, ?>) Internals.field(vertx, "timeouts")).values()) {
        Object handler = Internals.field(timer, "handler");
        boolean periodic = Boolean.TRUE.equals(Internals.field(timer, "periodic"));
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
}
