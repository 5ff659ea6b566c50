package io.looplab.grader.probe;

import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.EventExecutor;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Measures how late the event loops run a task handed to them. Every {@code periodMillis} a probe thread posts a
 * tiny task to each loop and records how long it waited. An idle loop answers in microseconds; a loop that runs
 * long work answers late by about as long as that work takes. Start it, run the workload, then {@link #stop()}.
 *
 * <p>Lag is wall time: on a crowded machine a loop that does nothing wrong still answers late, waiting for a core. A
 * test that must tell "the loop computed" from "the loop waited for a core" judges by {@link LoopCpu} instead, and
 * not while this probe runs, since every probe costs the loop a wake-up.
 */
public final class LagProbe implements AutoCloseable {

  /** What the probe saw: the worst wait and the 99th percentile, over every loop. */
  public record Lag(double maxMillis, double p99Millis, int samples) {
    @Override
    public String toString() {
      return String.format("max %.1f ms, p99 %.1f ms over %d samples", maxMillis, p99Millis, samples);
    }
  }

  private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "looplab-lag-probe");
    t.setDaemon(true);
    return t;
  });
  private final List<Long> lagsNanos = new ArrayList<>();

  private LagProbe(Vertx vertx, long periodMillis) {
    EventLoopGroup loops = ((VertxInternal) vertx).nettyEventLoopGroup();
    ticker.scheduleAtFixedRate(() -> {
      for (EventExecutor loop : loops) {
        long posted = System.nanoTime();
        loop.execute(() -> record(System.nanoTime() - posted));
      }
    }, 0, periodMillis, TimeUnit.MILLISECONDS);
  }

  /** Starts probing every event loop of {@code vertx} every {@code periodMillis} milliseconds. */
  public static LagProbe start(Vertx vertx, long periodMillis) {
    return new LagProbe(vertx, periodMillis);
  }

  private void record(long nanos) {
    synchronized (lagsNanos) {
      lagsNanos.add(nanos);
    }
  }

  /** Stops probing and summarises. Tasks still queued on a stuck loop are not waited for. */
  public Lag stop() {
    ticker.shutdownNow();
    long[] sorted;
    synchronized (lagsNanos) {
      sorted = lagsNanos.stream().mapToLong(Long::longValue).sorted().toArray();
    }
    if (sorted.length == 0) {
      return new Lag(0, 0, 0);
    }
    int p99 = (int) Math.ceil(sorted.length * 0.99) - 1;
    return new Lag(sorted[sorted.length - 1] / 1e6, sorted[Math.max(0, p99)] / 1e6, sorted.length);
  }

  /** The samples so far, in milliseconds, for a report or a plot. */
  public double[] samplesMillis() {
    synchronized (lagsNanos) {
      return lagsNanos.stream().mapToDouble(n -> n / 1e6).toArray();
    }
  }

  @Override
  public void close() {
    ticker.shutdownNow();
  }
}
