package io.looplab.promises;

import io.looplab.grader.testkit.OnContext;
import io.vertx.core.Context;
import org.opentest4j.AssertionFailedError;

/**
 * One request the service made to the test's legacy client, and the means to answer it: on the service's event loop
 * (in one task of its own, as a client with Vert.x inside would), or from a thread of the client's own (as most
 * legacy clients do). Every answer waits until the callback has returned; a request can be answered any number of
 * times, which is the point.
 */
final class FeedRequest {

  private final FakeQuoteClient client;
  final String feed;
  final String symbol;
  private final LegacyQuoteClient.QuoteCallback callback;
  /** Where the learner's code made the request, as "fetch() at QuoteService.java:60". */
  final String callSite;
  final Context context;

  FeedRequest(FakeQuoteClient client, String feed, String symbol, LegacyQuoteClient.QuoteCallback callback,
              String callSite, Context context) {
    this.client = client;
    this.feed = feed;
    this.symbol = symbol;
    this.callback = callback;
    this.callSite = callSite;
    this.context = context;
  }

  /** Calls {@code onQuote(quote)} on the event loop the request came from. */
  void quote(Quote quote) {
    onLoop("onQuote(" + quote + ")", () -> callback.onQuote(quote));
  }

  /** Calls {@code onError(error)} on the event loop the request came from. */
  void error(Throwable error) {
    onLoop("onError(" + error + ")", () -> callback.onError(error));
  }

  /** Calls {@code onQuote(quote)} from a new thread of the client's, named {@code thread}, and waits for it. */
  void quoteFrom(String thread, Quote quote) {
    fromThread(thread, "onQuote(" + quote + ")", () -> callback.onQuote(quote));
  }

  /** Calls {@code onError(error)} from a new thread of the client's, named {@code thread}, and waits for it. */
  void errorFrom(String thread, Throwable error) {
    fromThread(thread, "onError(" + error + ")", () -> callback.onError(error));
  }

  /** Calls {@code onQuote(quote)} on {@code other}, a context of another event loop (a client with Vert.x inside). */
  void quoteOn(Context other, Quote quote) {
    OnContext.run(other, () -> client.deliver("onQuote(" + quote + ") on another event loop", () ->
        callback.onQuote(quote)), QuoteScene.WAIT);
  }

  private void onLoop(String what, Runnable call) {
    if (context == null) {
      throw new AssertionFailedError("The service called requestQuote(" + feed + ", " + symbol + ") outside any "
          + "Vert.x context, at " + callSite + ". Call it from the verticle's event loop.");
    }
    OnContext.run(context, () -> client.deliver(what, call), QuoteScene.WAIT);
  }

  private void fromThread(String name, String what, Runnable call) {
    Thread thread = new Thread(() -> client.deliver(what + " on " + name, call), name);
    thread.start();
    try {
      thread.join(QuoteScene.WAIT.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (thread.isAlive()) {
      throw new AssertionFailedError("The callback " + what + ", called from the client's thread " + name
          + ", did not return within " + QuoteScene.WAIT.toSeconds() + " s. A callback must hand the answer over "
          + "and return at once, never wait.");
    }
  }

  @Override
  public String toString() {
    return feed + ":" + symbol;
  }
}
