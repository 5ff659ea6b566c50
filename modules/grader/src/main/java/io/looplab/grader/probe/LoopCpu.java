package io.looplab.grader.probe;

import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.EventExecutor;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Counts the CPU time the event loops of a Vert.x spend from {@link #start} on. Lag is wall time, so on a crowded
 * machine a loop that does nothing wrong still answers late, waiting for a core; CPU time is what the loops
 * themselves did, whatever the machine: a test that must tell "the loop computed" from "the loop waited for a core"
 * judges by it.
 *
 * <p>It posts one task to each loop at the start and none after: the loops are woken for nothing else. (A probe that
 * wakes a loop every few milliseconds costs it 40 to 90 microseconds a time, measured here: 56 to 137 ms over two
 * idle seconds at one wake-up every 5 ms on each of four loops, more than a 100 ms hash. {@link LagProbe} does that,
 * which is why it does not count CPU.)
 */
public final class LoopCpu {

  /**
   * The loops' CPU time since the start: all of them together, and the busiest one alone (one verticle's work runs
   * on one loop, so a task computed there shows whole on it).
   */
  public record Reading(double totalMillis, double busiestMillis, int loops) {
    @Override
    public String toString() {
      return String.format("the %d event loops %.0f ms on the CPU, the busiest %.0f ms", loops, totalMillis,
          busiestMillis);
    }
  }

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  /** Each loop's thread, and its CPU time when the start task ran on it. */
  private final Map<Thread, Long> cpuAtStart = new ConcurrentHashMap<>();

  private LoopCpu() {
  }

  /**
   * Starts counting on every event loop of {@code vertx}, and returns once each loop has taken its starting reading
   * (or after {@code waitMillis}: a loop that had not run the start task by then counts nothing).
   */
  public static LoopCpu start(Vertx vertx, long waitMillis) throws InterruptedException {
    LoopCpu cpu = new LoopCpu();
    EventLoopGroup loops = ((VertxInternal) vertx).nettyEventLoopGroup();
    int count = 0;
    for (EventExecutor ignored : loops) {
      count++;
    }
    CountDownLatch started = new CountDownLatch(count);
    for (EventExecutor loop : loops) {
      loop.execute(() -> {
        cpu.cpuAtStart.putIfAbsent(Thread.currentThread(), THREADS.getCurrentThreadCpuTime());
        started.countDown();
      });
    }
    started.await(waitMillis, TimeUnit.MILLISECONDS);
    return cpu;
  }

  /** The CPU time the loops have spent since the start, read now. */
  public Reading read() {
    long total = 0;
    long busiest = 0;
    for (Map.Entry<Thread, Long> loop : cpuAtStart.entrySet()) {
      long now = THREADS.getThreadCpuTime(loop.getKey().getId());
      if (now >= 0 && loop.getValue() >= 0) {
        long spent = now - loop.getValue();
        total += spent;
        busiest = Math.max(busiest, spent);
      }
    }
    return new Reading(total / 1e6, busiest / 1e6, cpuAtStart.size());
  }
}
