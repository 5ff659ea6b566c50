package io.looplab.grader.internal.leaks;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The threads alive at one moment, so that the threads started later can be found again. A thread the code under
 * test started (a plain ExecutorService, a java.util.Timer) and never stopped outlives its verticle.
 */
public final class ThreadCensus {

  /** Threads that the JVM, JUnit, Netty or Vert.x itself own; they come and go on their own schedule. */
  private static final List<String> INFRASTRUCTURE = List.of(
      "vert.x-eventloop-thread-", "vert.x-acceptor-thread-", "vert.x-worker-thread-", "vert.x-internal-blocking-",
      "vertx-blocked-thread-checker", "globalEventExecutor", "threadDeathWatcher", "junit-", "ForkJoinPool.commonPool",
      "process reaper", "Attach Listener", "Common-Cleaner", "Signal Dispatcher", "Reference Handler", "Finalizer",
      "Notification Thread", "surefire-", "JDWP", "InnocuousThread", "Keep-Alive-Timer");

  private final Set<Long> baseline;

  private ThreadCensus(Set<Long> baseline) {
    this.baseline = baseline;
  }

  public static ThreadCensus now() {
    return new ThreadCensus(Thread.getAllStackTraces().keySet().stream().map(Thread::getId).collect(Collectors.toSet()));
  }

  /** Threads started since this census that are still alive after waiting up to {@code graceMillis} in total. */
  public List<Thread> survivorsAfter(long graceMillis) throws InterruptedException {
    return survivorsAfter(graceMillis, t -> isInfrastructure(t.getName()));
  }

  /** The same, leaving out the threads that {@code ignored} accepts instead of the infrastructure's. */
  public List<Thread> survivorsAfter(long graceMillis, Predicate<Thread> ignored) throws InterruptedException {
    long deadline = System.currentTimeMillis() + graceMillis;
    List<Thread> survivors = new ArrayList<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (baseline.contains(t.getId()) || ignored.test(t)) {
        continue;
      }
      // A pool that was closed lets its threads finish on their own; give them the time to.
      t.join(Math.max(1, deadline - System.currentTimeMillis()));
      if (t.isAlive()) {
        survivors.add(t);
      }
    }
    return survivors;
  }

  private static boolean isInfrastructure(String name) {
    return INFRASTRUCTURE.stream().anyMatch(name::startsWith);
  }
}
