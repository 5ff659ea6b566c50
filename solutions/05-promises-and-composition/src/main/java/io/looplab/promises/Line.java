package io.looplab.promises;

/**
 * One line of {@link QuoteService#report}: the quote of one symbol, or the error its fetch failed with (exactly one
 * of the two is set). Given: do not change.
 */
public record Line(String symbol, Quote quote, Throwable error) {

  public static Line of(Quote quote) {
    return new Line(quote.symbol(), quote, null);
  }

  public static Line failed(String symbol, Throwable error) {
    return new Line(symbol, null, error);
  }

  public boolean succeeded() {
    return error == null;
  }
}
