package io.looplab.grader.internal.guard;

import com.sun.management.GarbageCollectionNotificationInfo;
import com.sun.management.GcInfo;

import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * The garbage collector's stop-the-world pauses in this JVM, as the collectors report them. While the JVM is paused
 * every thread stands still, the event loop and the stall checker alike, so the wall time of a task includes the
 * pause; it is the JVM's doing, not the task's. Seen in the self-test: a grading JVM that had served several jobs
 * paused for 40-96 ms (young collections and a full one at the metaspace threshold, Serial GC on 2 busy cores), and
 * loops of correct designs were reported "busy for 50 ms" across such a pause.
 *
 * <p>The collectors announce each pause by a notification after it ends. A stall checker that looks right after a
 * pause may see it before the notification; {@link #settled()} says whether every collection counted so far has been
 * heard of, so that a judgment can wait for the next check.
 */
final class GcPauses {

  /** How many recent pauses are kept: far more than can overlap one task. */
  private static final int KEPT = 64;

  /** After this long, a collection still not heard of is taken as never to be announced. */
  private static final long GIVE_UP_NANOS = 500_000_000;

  private static final GcPauses INSTANCE = new GcPauses();

  private final List<GarbageCollectorMXBean> collectors = new ArrayList<>();
  /** Each pause's start and end, in the collectors' own milliseconds. */
  private final long[] startMillis = new long[KEPT];
  private final long[] endMillis = new long[KEPT];
  /**
   * Where the collectors' clock starts on the {@link System#nanoTime()} scale. They count from the JVM's start, but
   * not from the moment the runtime bean calls its start (measured: 57-60 ms apart), so the origin is learned from
   * the pauses: a notification arrives after its pause ends, and the earliest arrival gives the closest origin.
   */
  private long originNanos = Long.MAX_VALUE;
  private int recorded;
  private long heardOf;
  private long countedBefore;
  private long unsettledSince = -1;

  static GcPauses instance() {
    return INSTANCE;
  }

  private GcPauses() {
    for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
      // ZGC and Shenandoah report their concurrent cycles as a collector of their own: those stop no thread.
      if (collector instanceof NotificationEmitter && !collector.getName().contains("Cycles")) {
        collectors.add(collector);
      }
    }
    // Counted before listening: a collection in between is then missing for a moment, never heard of twice.
    countedBefore = counted();
    for (GarbageCollectorMXBean collector : collectors) {
      if (collector instanceof NotificationEmitter emitter) {
        emitter.addNotificationListener((notification, handback) -> {
          if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
            GcInfo info = GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData())
                .getGcInfo();
            record(info.getStartTime(), info.getEndTime(), System.nanoTime());
          }
        }, null, null);
      }
    }
  }

  private synchronized void record(long start, long end, long heardAtNanos) {
    startMillis[recorded % KEPT] = start;
    endMillis[recorded % KEPT] = end;
    originNanos = Math.min(originNanos, heardAtNanos - end * 1_000_000);
    recorded++;
    heardOf++;
  }

  /** The time between {@code from} and {@code to} (both {@link System#nanoTime()}) that the JVM spent paused. */
  synchronized long pausedBetween(long from, long to) {
    long paused = 0;
    for (int i = Math.max(0, recorded - KEPT); i < recorded; i++) {
      // Whole milliseconds: a pause is taken to last to the end of its last millisecond.
      long start = Math.max(from, originNanos + startMillis[i % KEPT] * 1_000_000);
      long end = Math.min(to, originNanos + (endMillis[i % KEPT] + 1) * 1_000_000);
      if (end > start) {
        paused += end - start;
      }
    }
    return Math.min(paused, to - from);
  }

  /**
   * Whether every collection that has happened has been announced, so that {@link #pausedBetween} knows of every
   * pause until now. A collection never announced within half a second is given up on.
   */
  synchronized boolean settled() {
    long missing = counted() - countedBefore - heardOf;
    if (missing <= 0) {
      unsettledSince = -1;
      return true;
    }
    long now = System.nanoTime();
    if (unsettledSince < 0) {
      unsettledSince = now;
    }
    if (now - unsettledSince > GIVE_UP_NANOS) {
      heardOf += missing;
      unsettledSince = -1;
      return true;
    }
    return false;
  }

  private long counted() {
    long count = 0;
    for (GarbageCollectorMXBean collector : collectors) {
      count += Math.max(0, collector.getCollectionCount());
    }
    return count;
  }
}
