package io.looplab.eventloop;

import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.concurrent.CompletionStage;

/**
 * A user's dashboard over HTTP: {@code GET /dashboard?user=ada} answers
 * {@code {"user":"ada","profile":{...},"orders":[...]}}, built from two lookups in the {@link UserDirectory}.
 * The {@link VisitLog} is this verticle's own state: only its event loop may touch it.
 */
public final class DashboardVerticle extends VerticleBase {

  /** How often the visit summary is logged. */
  static final long SUMMARY_EVERY_MS = 60_000;

  private final UserDirectory directory;
  private final VisitLog visits;
  private volatile int port;

  public DashboardVerticle(UserDirectory directory, VisitLog visits) {
    this.directory = directory;
    this.visits = visits;
  }

  /** The port the dashboard listens on, once started. */
  public int port() {
    return port;
  }

  @Override
  public Future<?> start() {
    // A Vert.x timer set here belongs to this verticle: its handler runs on this event loop, like every other
    // handler of the verticle, and undeploying the verticle cancels it.
    vertx.setPeriodic(SUMMARY_EVERY_MS, id -> System.out.println("dashboard: " + visits.summary()));
    return vertx.createHttpServer()
        .requestHandler(this::handle)
        .listen(0, "127.0.0.1")
        .onSuccess(server -> port = server.actualPort());
  }

  /** Runs on this verticle's event loop, the same thread for every request. */
  private void handle(HttpServerRequest request) {
    String user = request.getParam("user", "");
    visits.opened(user);
    dashboard(user).onComplete(answer -> respond(request, user, answer));
  }

  /**
   * Runs where the dashboard's future delivers it: on this event loop, because both lookups came back to it
   * (see {@link #onThisContext}), so touching the VisitLog here is safe.
   */
  private void respond(HttpServerRequest request, String user, AsyncResult<JsonObject> answer) {
    if (answer.succeeded()) {
      visits.answered(user);
      request.response().putHeader("content-type", "application/json").end(answer.result().encode());
    } else {
      // A failed lookup fails the whole answer: no half-built dashboard, and never no answer at all.
      visits.failed(user);
      request.response().setStatusCode(502).end("The user directory failed: " + answer.cause().getMessage());
    }
  }

  /** The dashboard of {@code user}: the profile and the orders, looked up at the same time. */
  Future<JsonObject> dashboard(String user) {
    // The two lookups do not depend on each other, so both are started now, before waiting for either: the
    // dashboard then takes as long as the slower lookup, not the sum of both. Future.all waits for both, and fails
    // as soon as one of them fails.
    Future<JsonObject> profile = onThisContext(directory.profile(user));
    Future<JsonArray> orders = onThisContext(directory.orders(user));
    return Future.all(profile, orders).map(both -> new JsonObject()
        .put("user", user)
        .put("profile", profile.result())
        .put("orders", orders.result()));
  }

  /**
   * The directory's answer as a Vert.x future that belongs to this verticle's context: the stage completes on the
   * directory client's own thread, and the future hands the answer over to this event loop, so every callback chained
   * on it (map, compose, onComplete) runs here.
   */
  private <T> Future<T> onThisContext(CompletionStage<T> stage) {
    // Without the context, Future.fromCompletionStage(stage) belongs to no context, and its callbacks would run on
    // whatever thread completed the stage: the directory client's.
    return Future.fromCompletionStage(stage, context);
  }
}
