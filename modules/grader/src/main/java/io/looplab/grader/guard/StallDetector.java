package io.looplab.grader.guard;

import io.vertx.core.impl.VertxThread;
import io.vertx.core.internal.threadchecker.BlockedThreadEvent;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Turns Vert.x's blocked-thread checker into a failing check for CPU stalls. The guard sets the checker's limit to
 * half the stall limit and its period to 10 ms, so this handler hears about a long task early, on the checker's own
 * thread, while the loop's stack still shows the learner's line.
 *
 * <p>A task counts as a stall only when it has run for the stall limit <em>and</em> the loop's thread really spent
 * that time on the CPU. On a shared, busy machine a thread can be descheduled, or parked inside the JVM, for a
 * hundred milliseconds without doing anything wrong; wall-clock time alone would blame the learner for that.
 */
final class StallDetector {

  /**
   * The share of wall time that must be CPU time. A loop that is descheduled, throttled with the rest of its
   * container, or parked inside the JVM gains next to none; a spinning loop is near 1 on an idle machine and still
   * gets a sixth of a core at a load average of 12 on 2 cores. So the line is drawn low.
   */
  private static final double MIN_CPU_SHARE = 0.1;

  /** How long the loop must have been seen computing, at least, before it is blamed. */
  private static final long MIN_BUSY_WINDOW_NANOS = 15_000_000;

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  /**
   * What was seen of the current long task of each loop: when it started, its CPU time when first seen, and a
   * moving baseline (wall and CPU time) that restarts whenever the loop is seen waiting rather than computing.
   */
  private record Sighting(long taskStart, long firstCpuNanos, long wallNanos, long cpuNanos, boolean reported) {
  }

  private final Map<Thread, Sighting> sightings = new ConcurrentHashMap<>();
  private final long stallNanos = GuardSettings.stallMillis() * 1_000_000;
  private final boolean cpuTimeAvailable = THREADS.isThreadCpuTimeSupported();

  StallDetector() {
    // The first CPU-time reading sets up the JVM's management beans; pay for it now, not on the checker's thread.
    if (cpuTimeAvailable) {
      THREADS.getThreadCpuTime(Thread.currentThread().getId());
    }
  }

  void onBlocked(BlockedThreadEvent event) {
    if (!(event.thread() instanceof VertxThread thread) || thread.isWorker()) {
      return; // worker threads exist to block
    }
    long taskStart = thread.startTime();
    long now = System.nanoTime();
    long cpu = cpuTimeAvailable ? THREADS.getThreadCpuTime(thread.getId()) : -1;
    Sighting seen = sightings.get(thread);
    if (seen == null || seen.taskStart() != taskStart) {
      sightings.put(thread, new Sighting(taskStart, cpu, now, cpu, false));
      return; // the first sighting of this task only gives the baselines for its CPU time
    }
    if (seen.reported() || taskStart == 0 || event.duration() < stallNanos) {
      return;
    }
    if (cpuTimeAvailable && cpu >= 0 && !isComputing(thread, seen, now, cpu)) {
      return;
    }
    StackTraceElement[] stack = thread.getStackTrace();
    int learnerFrame = CodeUnderTest.firstFrameIndex(stack);
    if (learnerFrame < 0 || CodeUnderTest.isWarmingUp(stack, learnerFrame)) {
      return; // not the code under test, or the JVM loading classes: ask again on the next tick
    }
    sightings.put(thread, new Sighting(taskStart, seen.firstCpuNanos(), seen.wallNanos(), seen.cpuNanos(), true));
    ViolationLog.report(new Violation(Violation.Kind.STALL, thread.getName(),
        "one task kept the loop busy for " + event.duration() / 1_000_000 + " ms and counting (the limit is "
            + stallNanos / 1_000_000 + " ms), running " + stack[learnerFrame].getMethodName() + "()",
        CodeUnderTest.describe(stack[learnerFrame])));
  }

  /**
   * Whether the loop is burning CPU, not waiting: either it has used half the stall limit of CPU since it was first
   * seen (bursts on a crowded machine add up), or it ran for a fair part of a recent window. A loop seen waiting moves the
   * window's start to now.
   */
  private boolean isComputing(Thread thread, Sighting seen, long now, long cpu) {
    if (cpu - seen.firstCpuNanos() >= stallNanos / 2) {
      return true;
    }
    long window = now - seen.wallNanos();
    if (cpu - seen.cpuNanos() < MIN_CPU_SHARE * window) {
      sightings.put(thread, new Sighting(seen.taskStart(), seen.firstCpuNanos(), now, cpu, false));
      return false;
    }
    return window >= MIN_BUSY_WINDOW_NANOS;
  }
}
