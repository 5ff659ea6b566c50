package io.looplab.promises;

/** A price quoted by a feed: {@code price} units of {@code currency} for one {@code symbol}. Given: do not change. */
public record Quote(String symbol, double price, String currency) {
}
