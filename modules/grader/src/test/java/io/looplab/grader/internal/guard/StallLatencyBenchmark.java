package io.looplab.grader.internal.guard;

import io.looplab.grader.fixtures.Misbehaviour;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How long after a stall starts the guard reports it. A benchmark, not a timed test: it prints the figures and
 * checks only that every stall was reported. Run it with
 * {@code mvn -pl modules/grader test -Dtest=StallLatencyBenchmark -Dlooplab.excludedGroups=}.
 */
@Tag("benchmark")
class StallLatencyBenchmark {

  @Test
  @DisplayName("stall-to-report latency over 20 stalls of 200 ms")
  void measure() throws Exception {
    GuardServiceProvider.arm();
    CodeUnderTest.watchPackage("io.looplab.grader.fixtures");
    GuardSession session = GuardSession.open();
    Vertx vertx = Vertx.vertx();
    long[] latencies = new long[20];
    try {
      for (int i = 0; i < latencies.length; i++) {
        AtomicLong started = new AtomicLong();
        AtomicLong reported = new AtomicLong();
        CountDownLatch done = new CountDownLatch(1);
        session.violations().listen(v -> reported.compareAndSet(0, System.nanoTime()));
        vertx.runOnContext(v -> {
          started.set(System.nanoTime());
          Misbehaviour.spin(200);
          done.countDown();
        });
        assertTrue(done.await(10, TimeUnit.SECONDS));
        assertTrue(reported.get() > 0, "stall " + i + " was not reported");
        latencies[i] = (reported.get() - started.get()) / 1_000_000;
      }
    } finally {
      session.violations().listen(null);
      vertx.close().await();
      session.close();
    }
    long[] sorted = latencies.clone();
    Arrays.sort(sorted);
    System.out.printf("stall-to-report latency (ms, limit %d ms): min %d, median %d, max %d, all %s%n",
        GuardSettings.stallMillis(), sorted[0], sorted[sorted.length / 2], sorted[sorted.length - 1],
        Arrays.toString(latencies));
  }
}
