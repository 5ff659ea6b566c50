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

  /** Runs where the dashboard's future delivers it. It touches the VisitLog: that must be this event loop. */
  private void respond(HttpServerRequest request, String user, AsyncResult<JsonObject> answer) {
    if (answer.succeeded()) {
      visits.answered(user);
      request.response().putHeader("content-type", "application/json").end(answer.result().encode());
    } else {
      visits.failed(user);
      request.response().setStatusCode(502).end("The user directory failed: " + answer.cause().getMessage());
    }
  }

  /** The dashboard of {@code user}: the profile and the orders. */
  Future<JsonObject> dashboard(String user) {
    // TODO: the two lookups do not depend on each other, yet this asks for the orders only once the profile has
    //  arrived: "async" code, run one step after the other. Start both, then wait for both.
    return onThisContext(directory.profile(user))
        .compose(profile -> onThisContext(directory.orders(user))
            .map(orders -> new JsonObject()
                .put("user", user)
                .put("profile", profile)
                .put("orders", orders)));
  }

  /**
   * The directory's answer as a Vert.x future. The stage completes on the directory client's own thread, not on a
   * Vert.x thread.
   */
  private <T> Future<T> onThisContext(CompletionStage<T> stage) {
    // TODO: turn the stage into a Future whose callbacks (map, compose, onComplete) run on this verticle's event
    //  loop, because respond() touches the VisitLog, which only this loop may touch.
    return Future.failedFuture(new UnsupportedOperationException("TODO: turn the directory's CompletionStage into a "
        + "Future that delivers on this verticle's context (DashboardVerticle.onThisContext)"));
  }
}
