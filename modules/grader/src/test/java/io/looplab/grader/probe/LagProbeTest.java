package io.looplab.grader.probe;

import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** The probe sees a busy loop as late by about as long as the work, and an idle loop as on time. */
class LagProbeTest {

  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() {
    vertx.close().await();
  }

  @Test
  @DisplayName("200 ms of work on a loop shows as at least 150 ms of lag")
  void busyLoopLags() throws Exception {
    LagProbe probe = LagProbe.start(vertx, 5);
    CountDownLatch done = new CountDownLatch(1);
    vertx.runOnContext(v -> {
      long end = System.nanoTime() + 200_000_000L;
      while (System.nanoTime() < end) {
        Thread.onSpinWait();
      }
      // one more round trip so that the probe's queued tasks have run
      vertx.runOnContext(w -> done.countDown());
    });
    assertTrue(done.await(10, TimeUnit.SECONDS));
    LagProbe.Lag lag = probe.stop();
    assertTrue(lag.maxMillis() >= 150, "expected the stall to show, got " + lag);
  }

  @Test
  @DisplayName("an idle loop answers quickly: p99 well under a stall")
  void idleLoopIsOnTime() throws Exception {
    LagProbe probe = LagProbe.start(vertx, 2);
    while (probe.samplesMillis().length < 200) {
      // count samples rather than time: the probe posts every 2 ms on each loop
      java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
    }
    LagProbe.Lag lag = probe.stop();
    assertTrue(lag.p99Millis() < 40, "an idle loop should not lag; got " + lag);
  }
}
