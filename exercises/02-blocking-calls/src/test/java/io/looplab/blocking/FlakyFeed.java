package io.looplab.blocking;

import io.vertx.core.Future;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A fake price feed: fails the first {@code failures} calls, then answers {@code price}. It remembers when each call
 * came, so that a test can check the backoff between attempts.
 */
final class FlakyFeed implements PriceFeed {
  private final int failures;
  private final double price;
  private final List<Long> callTimes = new ArrayList<>();

  FlakyFeed(int failures, double price) {
    this.failures = failures;
    this.price = price;
  }

  @Override
  public synchronized Future<Double> price(String symbol) {
    callTimes.add(System.nanoTime());
    if (callTimes.size() <= failures) {
      return Future.failedFuture(new IOException("price feed hiccup #" + callTimes.size()));
    }
    return Future.succeededFuture(price);
  }

  /** When each call came, as {@link System#nanoTime()}, in order. */
  synchronized List<Long> callTimes() {
    return List.copyOf(callTimes);
  }
}
