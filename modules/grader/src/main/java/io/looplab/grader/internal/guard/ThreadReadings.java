package io.looplab.grader.internal.guard;

import io.vertx.core.impl.VertxThread;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;

/**
 * What the stall detector reads of the JVM's threads and clock. The JVM's own readings in a grading; a test of the
 * detector's judgment scripts them, so that it can play a crowded machine's CPU time tick by tick.
 */
interface ThreadReadings {

  /** When the loop's current task started ({@link System#nanoTime} base), or 0 between tasks. */
  long taskStart(VertxThread loop);

  /** The thread's CPU time in nanoseconds, or -1 when the JVM cannot tell (or the thread has ended). */
  long cpuNanos(long threadId);

  /** The thread's state, lock and whole stack, in one snapshot; null once it has ended. */
  ThreadInfo info(long threadId);

  long nanoTime();

  /** The readings of this JVM. */
  static ThreadReadings jvm() {
    return Jvm.INSTANCE;
  }

  final class Jvm implements ThreadReadings {
    private static final Jvm INSTANCE = new Jvm();
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final boolean cpuTimeAvailable = threads.isThreadCpuTimeSupported();

    private Jvm() {
    }

    @Override
    public long taskStart(VertxThread loop) {
      return loop.startTime();
    }

    @Override
    public long cpuNanos(long threadId) {
      return cpuTimeAvailable ? threads.getThreadCpuTime(threadId) : -1;
    }

    @Override
    public ThreadInfo info(long threadId) {
      return threads.getThreadInfo(threadId, Integer.MAX_VALUE);
    }

    @Override
    public long nanoTime() {
      return System.nanoTime();
    }
  }
}
