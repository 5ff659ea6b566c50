package io.looplab.blocking;

import io.vertx.core.Future;

/**
 * The upstream price feed, an asynchronous client: {@link #price} returns at once, and its future completes later.
 * The feed is flaky: a call can fail now and the next one succeed, so callers retry.
 */
public interface PriceFeed {

  /** The current price of {@code symbol}, or a failed future when the feed hiccups. */
  Future<Double> price(String symbol);
}
