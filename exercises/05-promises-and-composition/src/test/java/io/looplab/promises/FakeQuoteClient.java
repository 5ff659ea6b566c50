package io.looplab.promises;

import io.looplab.grader.sync.CallSite;
import io.looplab.grader.sync.Signal;
import io.vertx.core.Vertx;
import org.opentest4j.AssertionFailedError;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The test's legacy client: it never answers on its own. Each request is kept as a {@link FeedRequest} that the test
 * answers when it chooses, as often as it chooses, on the service's event loop or on a thread of the client's own;
 * or the request throws at once, for the symbols the test said. Whatever the service's callback throws back into the
 * client is kept, for the messages.
 */
final class FakeQuoteClient implements LegacyQuoteClient {

  private final List<FeedRequest> requests = new ArrayList<>();
  private final Signal requested = new Signal();
  private final Map<String, RuntimeException> throwing = new ConcurrentHashMap<>();
  private final Map<String, Quote> atOnce = new ConcurrentHashMap<>();
  /** What the service's callbacks threw back into the client, as "onQuote(...) threw ...". */
  final List<String> thrownBack = new CopyOnWriteArrayList<>();

  @Override
  public void requestQuote(String feed, String symbol, QuoteCallback callback) {
    String site = CallSite.ofCurrentCall().orElse("(unknown)");
    RuntimeException error = throwing.get(symbol);
    if (error != null) {
      throw error;
    }
    synchronized (requests) {
      requests.add(new FeedRequest(this, feed, symbol, callback, site, Vertx.currentContext()));
    }
    requested.fire();
    Quote now = atOnce.get(symbol);
    if (now != null) {
      deliver("onQuote(" + now + ") at once, inside requestQuote", () -> callback.onQuote(now));
    }
  }

  /** From now on, a request for {@code symbol} is answered with {@code quote} at once, before requestQuote returns. */
  void answerAtOnce(String symbol, Quote quote) {
    atOnce.put(symbol, quote);
  }

  /** From now on, a request for {@code symbol} throws {@code error} instead of calling back. */
  void throwFor(String symbol, RuntimeException error) {
    throwing.put(symbol, error);
  }

  /** Wakes up a test waiting for a request: the call it waits for has answered (perhaps without asking). */
  void wake() {
    requested.fire();
  }

  /**
   * Waits, bounded, for request number {@code n} (from 1) of {@code call}, and returns it; fails at once when the
   * call answers before making it.
   */
  FeedRequest awaitRequest(int n, QuoteScene.Call<?> call) {
    String what = call.what;
    requested.await(() -> requests() >= n || call.answered(), QuoteScene.WAIT.toMillis());
    if (requests() < n && call.answered()) {
      throw new AssertionFailedError(what + " answered " + call.now() + " after " + requests() + " request(s) to "
          + "the legacy client (" + requestedSoFar() + "), where at least " + n + " were expected. Ask the client "
          + "(fetch) for each quote you need, and answer with what it says.");
    }
    if (requests() < n) {
      throw new AssertionFailedError(what + " did not reach the legacy client: " + requests() + " request(s) "
          + "arrived, " + requestedSoFar() + ", where at least " + n + " were expected. Call "
          + "client.requestQuote(feed, symbol, callback) for each quote you need.");
    }
    synchronized (requests) {
      return requests.get(n - 1);
    }
  }

  /** Whether request number {@code n} arrives within {@code millis}; for tests that prove a request waits. */
  boolean arrivesWithin(int n, long millis) {
    return requested.await(() -> requests() >= n, millis);
  }

  int requests() {
    synchronized (requests) {
      return requests.size();
    }
  }

  List<FeedRequest> all() {
    synchronized (requests) {
      return List.copyOf(requests);
    }
  }

  /** The requests so far, as "main:ACME, fx:CHF/EUR" (or "none"). */
  String requestedSoFar() {
    List<FeedRequest> now = all();
    return now.isEmpty() ? "none" : String.join(", ", now.stream().map(FeedRequest::toString).toList());
  }

  /** Runs {@code delivery} as the client would, keeping what the service's callback throws back. */
  void deliver(String what, Runnable delivery) {
    try {
      delivery.run();
    } catch (RuntimeException | Error thrown) {
      thrownBack.add(what + " threw " + thrown + CallSite.of(thrown.getStackTrace()).map(at -> " in " + at)
          .orElse(""));
    }
  }
}
