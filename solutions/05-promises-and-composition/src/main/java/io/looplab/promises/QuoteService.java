package io.looplab.promises;

import io.vertx.core.Context;
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
    // A fetch still waiting at undeploy would wait for ever (Vert.x cancels our timers): its caller must hear that
    // the service stopped. tryFail, since a callback may answer it in the same breath.
    for (Promise<Quote> promise : List.copyOf(pending)) {
      promise.tryFail(new IllegalStateException("QuoteService stopped before the feed answered"));
    }
    return Future.succeededFuture();
  }

  /**
   * The quote of {@code symbol} from {@code feed}: the first answer of the legacy client, or its error, or a
   * {@link TimeoutException} when it has not answered within the timeout. Every later callback is ignored and counted
   * in {@link #ignoredCallbacks()}.
   */
  public Future<Quote> fetch(String feed, String symbol) {
    Promise<Quote> promise = Promise.promise();
    pending.add(promise);
    // The timer and the callback race for the same promise: whichever comes second must lose quietly, hence
    // tryFail here and tryComplete/tryFail in settle, never complete/fail.
    long timer = vertx.setTimer(timeout.toMillis(), id -> promise.tryFail(new TimeoutException(
        feed + " did not answer for " + symbol + " within " + timeout.toMillis() + " ms")));
    Context context = this.context;
    try {
      client.requestQuote(feed, symbol, new LegacyQuoteClient.QuoteCallback() {
        // The client calls back on a thread of its own: hop back onto our event loop first, so that the caller's
        // continuations, and our own state, stay on it.
        @Override
        public void onQuote(Quote quote) {
          context.runOnContext(v -> settle(promise, quote, null));
        }

        @Override
        public void onError(Throwable error) {
          context.runOnContext(v -> settle(promise, null, error));
        }
      });
    } catch (RuntimeException thrown) {
      // A client that throws instead of calling back: that is the fetch's failure, not fetch()'s own exception.
      promise.tryFail(thrown);
    }
    // The clean-up runs on every path (quote, error, throw, timeout, stop) and passes the outcome on unchanged.
    return promise.future().eventually(() -> {
      vertx.cancelTimer(timer);
      pending.remove(promise);
      return Future.succeededFuture();
    });
  }

  /** The first callback wins; any later one (a second answer, an answer after the timeout) is counted, not thrown. */
  private void settle(Promise<Quote> promise, Quote quote, Throwable error) {
    boolean first = error == null ? promise.tryComplete(quote) : promise.tryFail(error);
    if (!first) {
      ignored.incrementAndGet();
    }
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
    return fetch(MAIN_FEED, symbol)
        .compose(quote -> fetch(FX_FEED, quote.currency() + "/" + currency)
            .map(rate -> quote.price() * rate.price()));
  }

  /**
   * The quote of {@code symbol} from the main feed; when that fails, the last quote this method answered for it
   * (for that symbol, and the newest). With no earlier quote for it, the fetch's own error, unchanged: a fallback
   * must never invent an answer.
   */
  public Future<Quote> quoteOrLastKnown(String symbol) {
    return fetch(MAIN_FEED, symbol)
        .onSuccess(quote -> lastKnown.put(symbol, quote))
        .recover(error -> {
          Quote known = lastKnown.get(symbol);
          // recover only what can be recovered; anything else goes on as the failure it is
          return known != null ? Future.succeededFuture(known) : Future.failedFuture(error);
        });
  }

  /**
   * Asks every feed of {@code feeds} for {@code symbol} at once and answers with the first quote that arrives,
   * without waiting for the others; fails only when every feed has failed, with one of their errors (or an error of
   * its own that carries them, as its cause or suppressed).
   */
  public Future<Quote> firstAnswer(String symbol, List<String> feeds) {
    List<Future<Quote>> asks = feeds.stream().map(feed -> fetch(feed, symbol)).toList();
    // any: succeeds with the first success, fails once all have failed
    return Future.any(asks).map(done -> asks.stream().filter(Future::succeeded).findFirst().orElseThrow().result());
  }

  /**
   * The quotes of all {@code symbols} from the main feed, asked at once, in the order of {@code symbols}. Fails as
   * soon as one fetch fails, with its error, without waiting for the others.
   */
  public Future<List<Quote>> snapshot(List<String> symbols) {
    List<Future<Quote>> asks = symbols.stream().map(symbol -> fetch(MAIN_FEED, symbol)).toList();
    // all: fails fast, at the first failure
    return Future.all(asks).map(done -> done.<Quote>list());
  }

  /**
   * One line per symbol of {@code symbols}, in that order, each with its quote or its error: asked at once, and
   * answered once every fetch has answered, whatever each one answered.
   */
  public Future<List<Line>> report(List<String> symbols) {
    List<Future<Quote>> asks = symbols.stream().map(symbol -> fetch(MAIN_FEED, symbol)).toList();
    // join: waits for every one, then each future says how it ended
    return Future.join(asks).transform(done -> Future.succeededFuture(
        java.util.stream.IntStream.range(0, asks.size()).mapToObj(i -> asks.get(i).succeeded()
            ? Line.of(asks.get(i).result()) : Line.failed(symbols.get(i), asks.get(i).cause())).toList()));
  }
}
