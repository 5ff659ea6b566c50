package io.looplab.grader.probe;

import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The loops' CPU time counts what ran on them, and nothing that ran on a worker or that the counter did. */
class LoopCpuTest {

  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() {
    vertx.close().await();
  }

  @Test
  @DisplayName("100 ms of CPU on a loop shows whole on the busiest loop; the same work on a worker does not")
  void countsTheLoopsOwnCpuTime() throws Exception {
    LoopCpu onLoop = LoopCpu.start(vertx, 10_000);
    CountDownLatch computed = new CountDownLatch(1);
    vertx.runOnContext(v -> {
      computeFor(100);
      computed.countDown();
    });
    assertTrue(computed.await(10, TimeUnit.SECONDS));
    LoopCpu.Reading loopWork = onLoop.read();
    assertTrue(loopWork.busiestMillis() >= 95, "100 ms computed on a loop, yet the counter saw " + loopWork);
    assertTrue(loopWork.totalMillis() >= loopWork.busiestMillis(), "the total is less than one loop: " + loopWork);

    LoopCpu onWorker = LoopCpu.start(vertx, 10_000);
    vertx.executeBlocking(() -> computeFor(100)).await();
    LoopCpu.Reading workerWork = onWorker.read();
    assertTrue(workerWork.totalMillis() < 50, "100 ms computed on a worker, yet the loops were counted " + workerWork);
  }

  @Test
  @DisplayName("every loop is counted, and loops left idle spend next to nothing: the counter does not wake them")
  void idleLoopsCostNothing() throws Exception {
    LoopCpu cpu = LoopCpu.start(vertx, 10_000);
    CountDownLatch later = new CountDownLatch(1);
    vertx.setTimer(300, id -> later.countDown());
    assertTrue(later.await(10, TimeUnit.SECONDS));
    LoopCpu.Reading idle = cpu.read();
    assertEquals(2 * Runtime.getRuntime().availableProcessors(), idle.loops(), "one reading per event loop: " + idle);
    // A probe that woke each loop every 5 ms spent 56 to 137 ms over two seconds here; idle loops spend well under 1.
    assertTrue(idle.totalMillis() < 20, "loops left idle for 300 ms, yet " + idle);
  }

  /** Computes until this thread has used {@code millis} of CPU time, however busy the machine. */
  private static long computeFor(long millis) {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long end = threads.getCurrentThreadCpuTime() + millis * 1_000_000;
    long x = 0;
    while (threads.getCurrentThreadCpuTime() < end) {
      x += System.nanoTime() % 7;
    }
    return x;
  }
}
