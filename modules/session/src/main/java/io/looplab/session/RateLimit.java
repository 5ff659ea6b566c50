package io.looplab.session;

import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * A token bucket per learner: {@code capacity} posts at once, refilled at capacity per {@code windowNanos}. Used
 * only on the server's event loop, so it needs no lock. The clock is given, so that tests move time by hand.
 */
final class RateLimit {
  private final int capacity;
  private final long windowNanos;
  private final LongSupplier clock;
  private final Map<String, double[]> buckets = new HashMap<>(); // learner -> {tokens, last refill nanos}

  RateLimit(int capacity, long windowNanos, LongSupplier clock) {
    this.capacity = capacity;
    this.windowNanos = windowNanos;
    this.clock = clock;
  }

  /** 0 if the learner may post now (and takes a token), else the whole seconds to wait. */
  long take(String learner) {
    long now = clock.getAsLong();
    double[] bucket = buckets.computeIfAbsent(learner, l -> new double[] {capacity, now});
    double refilled = (now - bucket[1]) * (double) capacity / windowNanos;
    bucket[0] = Math.min(capacity, bucket[0] + refilled);
    bucket[1] = now;
    if (bucket[0] >= 1) {
      bucket[0] -= 1;
      return 0;
    }
    double nanosToOne = (1 - bucket[0]) * windowNanos / capacity;
    return Math.max(1, (long) Math.ceil(nanosToOne / 1e9));
  }
}
