package io.looplab.promises;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A quote service over a {@link LegacyQuoteClient}: one adapter from its callbacks to a {@link Future}
 * ({@link #fetch}), and four compositions of fetches, one after another ({@link #priceIn}), with a fallback
 * ({@link #quoteOrLastKnown}) and side by side ({@link #firstAnswer}, {@link #snapshot}, {@link #report}). Every
 * method is called on this verticle's event loop, and every future it returns completes there.
 */
public class QuoteService extends VerticleBase {

  /** The feed that quotes symbols in their own currency. */
  public static final String MAIN_FEED = "main";
  /** The feed that quotes exchange rates: the symbol "CHF/EUR" is worth {@code price} EUR per CHF. */
  public static final String FX_FEED = "fx";

  private final LegacyQuoteClient client;
  private final Duration timeout;
  /** The fetches not answered yet; only ever touched on this verticle's event loop. */
  private final Set<Promise<Quote>> pending = new HashSet<>();
  /** The last quote {@link #quoteOrLastKnown} answered for each symbol; event loop only. */
  private final Map<String, Quote> lastKnown = new HashMap<>();
  /** Callbacks that came after their fetch was already answered: reported, never thrown. */
  private final AtomicInteger ignored = new AtomicInteger();

  public QuoteService(LegacyQuoteClient client, Duration timeout) {
    this.client = client;
    this.timeout = timeout;
  }

  @Override
  public Future<?> stop() {
    // TODO: a fetch still waiting at undeploy must hear that the service stopped, instead of waiting for ever.
    return Future.succeededFuture();
  }

  /**
   * The quote of {@code symbol} from {@code feed}: the first answer of the legacy client, or its error, or a
   * {@link TimeoutException} when it has not answered within the timeout. Every later callback is ignored and counted
   * in {@link #ignoredCallbacks()}.
   */
  public Future<Quote> fetch(String feed, String symbol) {
    // TODO: this adapter works only for a client that behaves. Make it cope with one that calls back twice, throws,
    //  calls back on a thread of its own, or never answers (the timeout); and clean up on every path.
    Promise<Quote> promise = Promise.promise();
    pending.add(promise);
    client.requestQuote(feed, symbol, new LegacyQuoteClient.QuoteCallback() {
      @Override
      public void onQuote(Quote quote) {
        promise.complete(quote);
        pending.remove(promise);
      }

      @Override
      public void onError(Throwable error) {
        promise.fail(error);
        pending.remove(promise);
      }
    });
    return promise.future();
  }

  /** How many callbacks came after their fetch was already answered (and were ignored). */
  public int ignoredCallbacks() {
    return ignored.get();
  }

  /** How many fetches are waiting for the client right now. */
  public int pending() {
    return pending.size();
  }

  /**
   * The price of {@code symbol} in {@code currency}: its quote from the main feed, then the rate from the quote's own
   * currency to {@code currency} from the fx feed, multiplied. Sequential by nature: the second question needs the
   * first answer. A failure of either step is the result's failure.
   */
  public Future<Double> priceIn(String symbol, String currency) {
    // TODO: fetch(MAIN_FEED, symbol), then fetch(FX_FEED, "<quote's currency>/" + currency), and multiply.
    return Future.failedFuture(new UnsupportedOperationException("TODO: priceIn"));
  }

  /**
   * The quote of {@code symbol} from the main feed; when that fails, the last quote this method answered for it
   * (for that symbol, and the newest). With no earlier quote for it, the fetch's own error, unchanged: a fallback
   * must never invent an answer.
   */
  public Future<Quote> quoteOrLastKnown(String symbol) {
    // TODO: remember each quote answered; fall back to it on failure, and only to it.
    return Future.failedFuture(new UnsupportedOperationException("TODO: quoteOrLastKnown"));
  }

  /**
   * Asks every feed of {@code feeds} for {@code symbol} at once and answers with the first quote that arrives,
   * without waiting for the others; fails only when every feed has failed, with one of their errors (or an error of
   * its own that carries them, as its cause or suppressed).
   */
  public Future<Quote> firstAnswer(String symbol, List<String> feeds) {
    // TODO: one fetch per feed, all at once; the first success wins.
    return Future.failedFuture(new UnsupportedOperationException("TODO: firstAnswer"));
  }

  /**
   * The quotes of all {@code symbols} from the main feed, asked at once, in the order of {@code symbols}. Fails as
   * soon as one fetch fails, with its error, without waiting for the others.
   */
  public Future<List<Quote>> snapshot(List<String> symbols) {
    // TODO: one fetch per symbol, all at once; the first failure fails the snapshot.
    return Future.failedFuture(new UnsupportedOperationException("TODO: snapshot"));
  }

  /**
   * One line per symbol of {@code symbols}, in that order, each with its quote or its error: asked at once, and
   * answered once every fetch has answered, whatever each one answered.
   */
  public Future<List<Line>> report(List<String> symbols) {
    // TODO: one fetch per symbol, all at once; wait for every one, then one Line each (Line.of, Line.failed).
    return Future.failedFuture(new UnsupportedOperationException("TODO: report"));
  }
}
