package io.looplab.offload;

import io.looplab.vendor.LegacyDirectory;
import io.looplab.vendor.LegacyDirectoryException;
import io.looplab.vendor.PasswordHasher;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;

/**
 * The accounts service. Two endpoints, and both do slow work:
 * <ul>
 *   <li>{@code POST /hash} with {@code {"password": "..."}} answers {@code {"hash": "..."}}: about 100 ms of CPU;</li>
 *   <li>{@code GET /users/:id} answers {@code {"id": "...", "name": "..."}} from the legacy directory, whose client
 *       blocks until the directory answers.</li>
 * </ul>
 * A failure answers HTTP 500 with the reason in the body. The server listens on a free port: see {@link #port()}.
 *
 * <p>Right now everything runs on the event loop, so one slow hash or one slow lookup freezes every other request.
 */
public class AccountsVerticle extends VerticleBase {

  private final PasswordHasher hasher;
  private final LegacyDirectory directory;
  private volatile int port;

  public AccountsVerticle(PasswordHasher hasher, LegacyDirectory directory) {
    this.hasher = hasher;
    this.directory = directory;
  }

  /** The port the HTTP server listens on, once the verticle is deployed. */
  public int port() {
    return port;
  }

  @Override
  public Future<?> start() {
    // TODO: give the legacy directory a worker pool of its own: named, and no bigger than
    //  LegacyDirectory.MAX_CONNECTIONS. Created here, Vert.x closes it for you when the verticle is undeployed.

    Router router = Router.router(vertx);
    router.post("/hash").handler(BodyHandler.create(false)).handler(this::hashPassword);
    router.get("/users/:id").handler(this::lookUpUser);
    return vertx.createHttpServer()
        .requestHandler(router)
        .listen(0)
        .onSuccess(server -> port = server.actualPort());
  }

  private void hashPassword(RoutingContext ctx) {
    JsonObject body = ctx.body().asJsonObject();
    String password = body == null ? null : body.getString("password");
    try {
      // TODO: this is about 100 ms of CPU, and it runs on the event loop: while it runs, no other request, timer
      //  or response on this loop gets a turn. Run it on a worker thread instead, and answer when it completes.
      String hash = hasher.hash(password);
      ctx.json(new JsonObject().put("hash", hash));
    } catch (RuntimeException e) {
      answerError(ctx, "hashing failed", e);
    }
  }

  private void lookUpUser(RoutingContext ctx) {
    String id = ctx.pathParam("id");
    try {
      // TODO: displayName blocks this thread until the directory answers: never on the event loop. Run it on the
      //  directory's own worker pool. Lookups for different users are independent: they must not wait for each
      //  other, and executeBlocking is ordered unless you say otherwise.
      String name = directory.displayName(id);
      ctx.json(new JsonObject().put("id", id).put("name", name));
    } catch (LegacyDirectoryException e) {
      // TODO: once the call runs on another thread, this catch sees nothing: its failure arrives later, in the
      //  future that executeBlocking returns. Handle it there, or the caller never gets an answer.
      answerError(ctx, "directory lookup failed", e);
    }
  }

  /** HTTP 500 with the reason in the body, so that the caller learns what went wrong. */
  private static void answerError(RoutingContext ctx, String what, Throwable cause) {
    ctx.response()
        .setStatusCode(500)
        .putHeader("content-type", "text/plain; charset=utf-8")
        .end(what + ": " + cause.getMessage());
  }
}
