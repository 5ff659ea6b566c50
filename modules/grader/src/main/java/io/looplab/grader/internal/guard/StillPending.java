package io.looplab.grader.internal.guard;

import io.looplab.grader.internal.leaks.InFlight;
import io.looplab.grader.internal.leaks.LeakWatch;
import io.looplab.grader.internal.leaks.LocalLocks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What was still pending when a test ran out of time, in one sentence for its report: the requests nobody had
 * answered, the local locks held, the calls whose answers the test was holding back, and the worker tasks still
 * running, with where each one's thread is. A timeout alone says only that something never happened; this says
 * what the test was left waiting with. Facts only: which of them the code should have completed is for the test's
 * own message to say.
 */
public final class StillPending {

  /** How the sentence starts. */
  public static final String LEAD = "Still pending when the time ran out: ";
  /** Items named in full; the rest are counted. */
  private static final int MOST = 6;

  private StillPending() {
  }

  /**
   * {@code " Still pending when the time ran out: a; b."} for every Vert.x instance still open, or "" when nothing
   * was (or the census failed: it only ever adds to a message).
   */
  public static String sentence() {
    List<String> items = new ArrayList<>();
    try {
      List<String> tasks = new ArrayList<>();
      LeakWatch.live().forEach((vertx, watch) -> {
        InFlight inFlight = watch.resources().inFlight();
        items.addAll(inFlight.requests());
        items.addAll(LocalLocks.describeHeld(vertx));
        inFlight.runningTasks().forEach(task -> tasks.add("a task in the worker pool '" + task.pool() + "', running "
            + "for " + String.format(Locale.ROOT, "%.1f s", task.seconds()) + " on " + task.thread().getName()
            + Whereabouts.of(task.thread()).map(where -> ", " + where).orElse("")));
        tasks.addAll(inFlight.queuedTasks());
      });
      GuardSession.ifOpen(session -> items.addAll(session.heldBack().describe()));
      items.addAll(tasks);
    } catch (RuntimeException e) {
      return "";
    }
    if (items.isEmpty()) {
      return "";
    }
    String more = items.size() > MOST ? "; and " + (items.size() - MOST) + " more" : "";
    return " " + LEAD + String.join("; ", items.subList(0, Math.min(MOST, items.size()))) + more + ".";
  }
}
