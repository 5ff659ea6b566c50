package io.looplab.blocking;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * A small quote service with five endpoints: the reference solution. Every answer is the same as in the stub, and
 * no endpoint makes the event-loop thread wait or grind any more. Each change is marked {@code // FIX:}. The rule
 * behind all five: if a call has an asynchronous version, use it and say what to do when the result arrives; if
 * it has none (a synchronous library, pure CPU work), hand it to a worker thread with executeBlocking.
 */
public class QuoteVerticle extends VerticleBase {

  /** How many times GET /quote asks the feed before it gives up. */
  static final int MAX_ATTEMPTS = 4;
  /** The wait before the first retry; it doubles before each retry after that (20 ms, 40 ms, 80 ms). */
  static final long FIRST_BACKOFF_MS = 20;

  private final PriceFeed feed;
  private final Path disclaimerFile;
  private final LegacyAccounts accounts;
  private final RatingService ratings;
  private volatile int port = -1;

  public QuoteVerticle(PriceFeed feed, Path disclaimerFile, LegacyAccounts accounts, RatingService ratings) {
    this.feed = Objects.requireNonNull(feed);
    this.disclaimerFile = Objects.requireNonNull(disclaimerFile);
    this.accounts = Objects.requireNonNull(accounts);
    this.ratings = Objects.requireNonNull(ratings);
  }

  /** The port the service listens on, once it is deployed (it asks the OS for a free one). */
  public int actualPort() {
    if (port < 0) {
      throw new IllegalStateException("The verticle is not listening yet: deploy it first");
    }
    return port;
  }

  @Override
  public Future<?> start() {
    Router router = Router.router(vertx);
    router.get("/health").handler(ctx -> ctx.end("ok"));
    router.get("/quote/:symbol").handler(this::quote);
    router.get("/disclaimer").handler(this::disclaimer);
    router.get("/account/:id").handler(this::account);
    router.get("/rating/:symbol").handler(this::rating);
    router.get("/primes").handler(this::primes);
    return vertx.createHttpServer()
        .requestHandler(router)
        .listen(0)
        .onSuccess(server -> port = server.actualPort());
  }

  // 1. GET /quote/:symbol -> {"symbol":"ACME","price":101.25}, or 502 once the feed has failed MAX_ATTEMPTS times.
  private void quote(RoutingContext ctx) {
    String symbol = ctx.pathParam("symbol");
    priceWithRetry(symbol, 1, FIRST_BACKOFF_MS)
        .onSuccess(price -> ctx.json(new JsonObject().put("symbol", symbol).put("price", price)))
        .onFailure(err -> ctx.response().setStatusCode(502)
            .end("price feed unavailable after " + MAX_ATTEMPTS + " attempts: " + err.getMessage()));
  }

  private Future<Double> priceWithRetry(String symbol, int attempt, long backoffMs) {
    return feed.price(symbol).recover(err -> {
      if (attempt >= MAX_ATTEMPTS) {
        return Future.failedFuture(err);
      }
      // FIX: no thread waits out the backoff. vertx.timer(...) is a Future that Vert.x completes once the delay has
      // passed; the loop serves other requests meanwhile, and the retry runs on this same context afterwards.
      // (vertx.setTimer(backoffMs, id -> ...) with a Promise does the same, with a callback.)
      return vertx.timer(backoffMs, TimeUnit.MILLISECONDS)
          .compose(v -> priceWithRetry(symbol, attempt + 1, backoffMs * 2));
    });
  }

  // 2. GET /disclaimer -> the text of the disclaimer file, as it is on disk right now.
  private void disclaimer(RoutingContext ctx) {
    // FIX: Vert.x's file system reads the file on one of its internal worker threads and completes the Future on
    // this context. It is read again on every request, so an edited file is served as it is now.
    vertx.fileSystem().readFile(disclaimerFile.toString())
        .onSuccess(text -> ctx.response().putHeader("content-type", "text/plain; charset=utf-8").end(text))
        .onFailure(err -> ctx.fail(500, err));
  }

  // 3. GET /account/:id -> {"account":"42","owner":"Ada Lovelace"}
  private void account(RoutingContext ctx) {
    String id = ctx.pathParam("id");
    // FIX: the legacy call still blocks, but now a worker thread does the waiting. executeBlocking runs the
    // Callable on Vert.x's worker pool and completes the Future back on this event loop, where it is safe to answer.
    // `false` (unordered): lookups are independent, so one slow lookup need not hold up the next one, nor wait
    // behind a prime count from this same verticle. An exception thrown by ownerOf fails the Future: 502.
    vertx.executeBlocking(() -> accounts.ownerOf(id), false)
        .onSuccess(owner -> ctx.json(new JsonObject().put("account", id).put("owner", owner)))
        .onFailure(err -> ctx.fail(502, err));
  }

  // 4. GET /rating/:symbol -> {"symbol":"ACME","rating":"AA"}
  private void rating(RoutingContext ctx) {
    String symbol = ctx.pathParam("symbol");
    // FIX: no waiting at all. We say what to do with the rating once it arrives and return at once; the loop is
    // free meanwhile, so the rating service can even answer on this same loop. Errors go to the router: 500.
    Future<String> rating = ratings.ratingOf(symbol);
    rating.onSuccess(r -> ctx.json(new JsonObject().put("symbol", symbol).put("rating", r))).onFailure(ctx::fail);
  }

  // 5. GET /primes?below=2000000 -> {"below":2000000,"count":148933}
  private void primes(RoutingContext ctx) {
    int below;
    try {
      below = Integer.parseInt(ctx.queryParam("below").get(0));
    } catch (RuntimeException e) {
      ctx.response().setStatusCode(400).end("?below= must be a whole number");
      return;
    }
    // FIX: the computation is the same; only the thread changes. A worker thread grinds for a few hundred
    // milliseconds while the loop goes on with other requests, and the answer is written back on the loop.
    // Unordered, for the same reason as the account lookup.
    vertx.executeBlocking(() -> Primes.countBelow(below), false)
        .onSuccess(count -> ctx.json(new JsonObject().put("below", below).put("count", count)))
        .onFailure(err -> ctx.fail(500, err));
  }
}
