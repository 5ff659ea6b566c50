package io.looplab.session;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;

/**
 * A live session: learners join with the session code and post their results; the instructor, with the key, reads
 * them. Everything runs on one event loop; the store's SQL runs on the JDBC client's workers.
 */
public final class SessionServer {
  static final int BODY_LIMIT = 64 * 1024;

  private final SessionOptions options;
  private final SessionStore store;
  private final Secrets secrets = new Secrets();
  private final String code;
  private final String key;
  private final RateLimit rateLimit;
  /** Open /events streams; touched only on the server's event loop. */
  private final java.util.Set<io.vertx.core.http.HttpServerResponse> listeners = new java.util.HashSet<>();
  private HttpServer http;

  private SessionServer(SessionOptions options, SessionStore store, String code, String key, RateLimit rateLimit) {
    this.options = options;
    this.store = store;
    this.code = code;
    this.key = key;
    this.rateLimit = rateLimit;
  }

  public static Future<SessionServer> start(Vertx vertx, SessionOptions options, SubmissionGrader grader) {
    return start(vertx, options, grader, System::nanoTime);
  }

  /** As {@link #start(Vertx, SessionOptions, SubmissionGrader)}, with the rate limit's clock given (tests). */
  static Future<SessionServer> start(Vertx vertx, SessionOptions options, SubmissionGrader grader,
      java.util.function.LongSupplier nanoClock) {
    Secrets secrets = new Secrets();
    RateLimit limit = new RateLimit(20, 10_000_000_000L, nanoClock);
    return SessionStore.open(vertx, options).compose(store -> store.meta("code", secrets.sessionCode())
        .compose(code -> store.meta("key", secrets.secret())
            .map(key -> new SessionServer(options, store, code, key, limit)))
        .compose(server -> server.listen(vertx))
        .onFailure(failure -> store.close()));
  }

  private Future<SessionServer> listen(Vertx vertx) {
    Router router = Router.router(vertx);
    router.get("/api/ping").handler(this::ping);
    router.post("/api/*").handler(BodyHandler.create(false).setBodyLimit(BODY_LIMIT));
    router.post("/api/join").handler(this::join);
    router.post("/api/results").handler(this::results);
    router.get("/").handler(ctx -> instructor(ctx).onSuccess(v -> page(ctx, true)));
    router.get("/projector").handler(ctx -> instructor(ctx).onSuccess(v -> page(ctx, false)));
    router.get("/class.csv").handler(ctx -> instructor(ctx).onSuccess(v -> csv(ctx)));
    router.get("/events").handler(ctx -> instructor(ctx).onSuccess(v -> events(ctx)));
    router.route().failureHandler(this::failure);
    return vertx.createHttpServer().requestHandler(router).listen(options.port(), options.host()).map(server -> {
      this.http = server;
      return this;
    });
  }

  private void ping(RoutingContext ctx) {
    json(ctx, 200, new JsonObject().put("session", options.name()).put("kit", "looplab"));
  }

  private void join(RoutingContext ctx) {
    JsonObject body = body(ctx);
    String given = LearnerResult.text(body, "code");
    String name = LearnerResult.text(body, "name").strip();
    if (name.isEmpty() || name.length() > 60) {
      throw new BadRequest(400, "A name has 1 to 60 characters.");
    }
    if (!given.equalsIgnoreCase(code)) {
      throw new BadRequest(403, "That is not this session's code.");
    }
    String token = secrets.secret();
    store.join(name, secrets.secret(), token)
        .onSuccess(id -> json(ctx, 200, new JsonObject().put("learner", id).put("token", token)))
        .onFailure(ctx::fail);
  }

  private void results(RoutingContext ctx) {
    LearnerResult result = LearnerResult.parse(ctx.body().asString());
    authenticated(ctx)
        .compose(learner -> limited(ctx, learner))
        .compose(learner -> store.storeResult(learner.id(), result).onSuccess(stored -> {
          if (stored) {
            publish(learner.id(), result);
          }
        }))
        .onSuccess(stored -> json(ctx, 202, new JsonObject().put("accepted", true)))
        .onFailure(ctx::fail);
  }

  private Future<SessionStore.Learner> limited(RoutingContext ctx, SessionStore.Learner learner) {
    long wait = rateLimit.take(learner.id());
    if (wait == 0) {
      return Future.succeededFuture(learner);
    }
    ctx.response().putHeader("Retry-After", String.valueOf(wait));
    return Future.failedFuture(new BadRequest(429, "Too many posts; try again in " + wait + " s."));
  }

  /** Fails the request with 403 unless it carries the instructor key (query or X-Instructor-Key header). */
  private Future<Void> instructor(RoutingContext ctx) {
    String given = ctx.request().getParam("key");
    if (given == null) {
      given = ctx.request().getHeader("X-Instructor-Key");
    }
    if (given == null || !java.security.MessageDigest.isEqual(given.getBytes(), key.getBytes())) {
      ctx.fail(new BadRequest(403, "This page needs the instructor key."));
      return Future.failedFuture("no key");
    }
    return Future.succeededFuture();
  }

  private void page(RoutingContext ctx, boolean names) {
    store.learners().compose(learners -> store.results().map(results -> LivePage.render(options.name(), learners,
            results, names, (names ? "/events?key=" : "/events?projector=1&key=") + key)))
        .onSuccess(html -> ctx.response().putHeader("Content-Type", "text/html; charset=utf-8").end(html))
        .onFailure(ctx::fail);
  }

  private void csv(RoutingContext ctx) {
    store.learners().compose(learners -> store.results().map(results -> LivePage.csv(learners, results)))
        .onSuccess(csv -> ctx.response().putHeader("Content-Type", "text/csv; charset=utf-8").end(csv))
        .onFailure(ctx::fail);
  }

  private void events(RoutingContext ctx) {
    io.vertx.core.http.HttpServerResponse response = ctx.response();
    response.setChunked(true).putHeader("Content-Type", "text/event-stream").putHeader("Cache-Control", "no-cache");
    response.write(": connected\n\n");
    listeners.add(response);
    response.closeHandler(v -> listeners.remove(response));
  }

  /** One server-sent event per newly stored result; the page finds the cell by its id. */
  private void publish(String learner, LearnerResult result) {
    io.looplab.report.Standing standing = result.standing();
    String data = new JsonObject().put("cell", LivePage.cellId(learner, result.exercise()))
        .put("exercise", result.exercise()).put("standing", standing.word()).put("letter", LivePage.letter(standing))
        .put("inWords", standing.inWords()).encode();
    for (io.vertx.core.http.HttpServerResponse listener : java.util.List.copyOf(listeners)) {
      if (!listener.closed()) {
        listener.write("data: " + data + "\n\n");
      }
    }
  }

  private Future<SessionStore.Learner> authenticated(RoutingContext ctx) {
    String header = ctx.request().getHeader("Authorization");
    if (header == null || !header.startsWith("Bearer ")) {
      return Future.failedFuture(new BadRequest(401, "This request needs the token that join gave."));
    }
    return store.learnerOf(header.substring("Bearer ".length()).strip()).compose(learner -> learner == null
        ? Future.failedFuture(new BadRequest(401, "That token is not known to this session; join again."))
        : Future.succeededFuture(learner));
  }

  private static JsonObject body(RoutingContext ctx) {
    try {
      JsonObject json = ctx.body().asJsonObject();
      if (json == null) {
        throw new BadRequest(400, "The body is not a JSON object.");
      }
      return json;
    } catch (DecodeException | ClassCastException e) {
      throw new BadRequest(400, "The body is not a JSON object.");
    }
  }

  private void failure(RoutingContext ctx) {
    Throwable failure = ctx.failure();
    if (failure instanceof BadRequest bad) {
      json(ctx, bad.status(), new JsonObject().put("error", bad.getMessage()));
    } else if (ctx.statusCode() == 413) {
      json(ctx, 413, new JsonObject().put("error", "The body is larger than this server accepts."));
    } else {
      json(ctx, 500, new JsonObject().put("error", "The session server failed: " + failure));
    }
  }

  private static void json(RoutingContext ctx, int status, JsonObject body) {
    ctx.response().setStatusCode(status).putHeader("Content-Type", "application/json; charset=utf-8")
        .end(body.encode());
  }

  public int port() {
    return http.actualPort();
  }

  public String sessionCode() {
    return code;
  }

  public String instructorKey() {
    return key;
  }

  public String joinLine() {
    return "./lab join http://" + options.host() + ":" + port() + " " + code;
  }

  public String instructorUrl() {
    return "http://" + options.host() + ":" + port() + "/?key=" + key;
  }

  /** The stored results, oldest first (for the live page, the exports and tests). */
  Future<java.util.List<JsonObject>> results() {
    return store.results();
  }

  public Future<Void> close() {
    java.util.List.copyOf(listeners).forEach(r -> r.reset());
    Future<Void> stopped = http == null ? Future.succeededFuture() : http.close();
    return stopped.eventually(store::close);
  }
}
