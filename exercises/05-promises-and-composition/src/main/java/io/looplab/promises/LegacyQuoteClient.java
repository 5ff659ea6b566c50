package io.looplab.promises;

/**
 * An old quote client with a callback API, the kind a Vert.x service often has to live with. Given: do not change;
 * the tests bring their own.
 *
 * <p>What it promises is little, and the adapter must cope with all of it:
 * <ul>
 *   <li>it answers later, through the callback, <b>on a thread of its own</b> (never the caller's event loop, as a
 *       rule, though it may also call back at once, inside {@code requestQuote});</li>
 *   <li>it may call back <b>twice</b> (a retry inside the library answers again: two quotes, or a quote and an
 *       error, in either order);</li>
 *   <li>it may <b>throw</b> from {@code requestQuote} instead of calling back at all (a closed connection);</li>
 *   <li>it may <b>never</b> answer, or answer long after the caller gave up.</li>
 * </ul>
 */
public interface LegacyQuoteClient {

  /** Asks {@code feed} for the quote of {@code symbol}; the answer comes through {@code callback}, later. */
  void requestQuote(String feed, String symbol, QuoteCallback callback);

  /** The two ways the client answers. One of them is called per request; sometimes both, or one twice. */
  interface QuoteCallback {

    void onQuote(Quote quote);

    void onError(Throwable error);
  }
}
