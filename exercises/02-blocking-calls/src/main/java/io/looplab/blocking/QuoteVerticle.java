package io.looplab.blocking;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A small quote service with five endpoints. Every one of them gives the right answer, and every one of them makes
 * the event-loop thread wait or grind, each in its own way. While it does, this loop serves nobody else: not the
 * next request, not a timer, not a health check.
 *
 * <p>Your job: keep every answer exactly as it is, and take the blocking out. Each place to change is marked
 * {@code // TODO:}. Run {@code ./lab check 02-blocking-calls} to see which endpoints still block, and where.
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
      // TODO: this sleep parks the event-loop thread for the whole backoff, and every other request on this loop
      //  waits with it. Wait without a thread: let a Vert.x timer call you back, then retry.
      try {
        Thread.sleep(backoffMs);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return Future.failedFuture(e);
      }
      return priceWithRetry(symbol, attempt + 1, backoffMs * 2);
    });
  }

  // 2. GET /disclaimer -> the text of the disclaimer file, as it is on disk right now.
  private void disclaimer(RoutingContext ctx) {
    try {
      // TODO: Files.readString makes the event-loop thread wait for the disk. Use Vert.x's own file system API,
      //  which reads on a thread of its own and gives you a Future.
      String text = Files.readString(disclaimerFile);
      ctx.response().putHeader("content-type", "text/plain; charset=utf-8").end(text);
    } catch (IOException e) {
      ctx.fail(500, e);
    }
  }

  // 3. GET /account/:id -> {"account":"42","owner":"Ada Lovelace"}
  private void account(RoutingContext ctx) {
    String id = ctx.pathParam("id");
    try {
      // TODO: ownerOf blocks until the old server answers, and it has no asynchronous version. You cannot make it
      //  non-blocking, but you can choose the thread that waits: not this one.
      String owner = accounts.ownerOf(id);
      ctx.json(new JsonObject().put("account", id).put("owner", owner));
    } catch (RuntimeException e) {
      ctx.fail(502, e);
    }
  }

  // 4. GET /rating/:symbol -> {"symbol":"ACME","rating":"AA"}
  private void rating(RoutingContext ctx) {
    String symbol = ctx.pathParam("symbol");
    // TODO: join() parks the event-loop thread until the rating arrives. If the rating service answers on this
    //  same loop, as Vert.x clients do, it never arrives: the loop is the one waiting. Say what to do with the
    //  rating once it is there, instead of waiting for it.
    String rating = ratings.ratingOf(symbol).toCompletionStage().toCompletableFuture().join();
    ctx.json(new JsonObject().put("symbol", symbol).put("rating", rating));
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
    // TODO: this takes a few hundred milliseconds of pure CPU. Nothing here waits, yet the loop is just as stuck.
    //  Run the computation on a worker thread and answer when it is done.
    int count = Primes.countBelow(below);
    ctx.json(new JsonObject().put("below", below).put("count", count));
  }
}
