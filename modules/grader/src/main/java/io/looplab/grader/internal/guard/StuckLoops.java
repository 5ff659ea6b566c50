package io.looplab.grader.internal.guard;

import io.vertx.core.impl.VertxThread;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The event loops that a test class's guard has given up on: the task of a reported stall, still running
 * {@link GuardSettings#stuckMillis()} after it began. One per {@link GuardSession}. Nothing a test waits for from such
 * a loop will come (a spin that waits for a future only that loop can complete never ends), and no Java code can stop
 * a thread that spins. So whatever depends on the loop stops waiting for it:
 * <ul>
 *   <li>the test that waits ends at once ({@link EventLoopGuard} interrupts its thread, through
 *       {@link StuckTestInterrupter}: it has failed with the stall already, so only the time it would have waited is
 *       lost);</li>
 *   <li>the close after the test does not wait for that loop ({@link BoundedVertxClose});</li>
 *   <li>the later cases of the same test factory or template are not run ({@link EventLoopGuard}): each would only
 *       leave one more loop spinning;</li>
 *   <li>the loop's thread gets the lowest priority, where the JVM passes it on to the OS, so that it takes less of
 *       the CPU that the later tests need.</li>
 * </ul>
 */
final class StuckLoops {

  /** Each stuck loop, with the start of the task it is stuck in: a loop that has come back is no longer stuck. */
  private final Map<Thread, Long> stuck = Collections.synchronizedMap(new WeakHashMap<>());
  /** Who waits to hear of a stuck loop: the running test's guard, and the close after it. */
  private final List<Consumer<VertxThread>> listeners = new CopyOnWriteArrayList<>();

  /** A listener's registration: closing it ends the listening. */
  interface Listening extends AutoCloseable {
    @Override
    void close();
  }

  /** The stall detector's word, {@code loop} is stuck in the task that began at {@code taskStart}. */
  void report(VertxThread loop, long taskStart) {
    stuck.put(loop, taskStart);
    try {
      // Windows passes a Java priority on to the OS; Linux only with -XX:ThreadPriorityPolicy=1, which the grading
      // JVM does not set (without root, the JVM warns about it as it starts): there, failing fast does the work.
      loop.setPriority(Thread.MIN_PRIORITY);
    } catch (SecurityException e) {
      // the priority only saves the later tests some CPU
    }
    listeners.forEach(listener -> listener.accept(loop));
  }

  /** Whether {@code loop} is still in the task it was reported stuck in. */
  boolean isStuck(VertxThread loop) {
    Long taskStart = stuck.get(loop);
    return taskStart != null && taskStart == loop.startTime();
  }

  /** Tells {@code listener}, on the detector's thread, of each loop found stuck until the listening is closed. */
  Listening listen(Consumer<VertxThread> listener) {
    listeners.add(listener);
    return () -> listeners.remove(listener);
  }
}
