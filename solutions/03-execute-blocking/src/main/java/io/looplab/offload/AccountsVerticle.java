package io.looplab.offload;

import io.looplab.vendor.LegacyDirectory;
import io.looplab.vendor.PasswordHasher;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.WorkerExecutor;
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
 * <p>The event loop only receives requests and sends answers: the slow work runs on worker threads.
 */
public class AccountsVerticle extends VerticleBase {

  /** Its threads are named after it: legacy-directory-0, legacy-directory-1, ... */
  static final String DIRECTORY_POOL = "legacy-directory";

  private final PasswordHasher hasher;
  private final LegacyDirectory directory;
  private WorkerExecutor directoryPool;
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
    // FIX: the directory gets a worker pool of its own, sized to the calls it accepts at once. A slow directory
    // can then hold these 4 threads and no more: Vert.x's shared worker pool stays free for everything else, and
    // the name shows up in every thread dump. Created here, on this verticle's context, the pool is closed by
    // Vert.x when the verticle is undeployed (one created elsewhere, you would close in stop()).
    directoryPool = vertx.createSharedWorkerExecutor(DIRECTORY_POOL, LegacyDirectory.MAX_CONNECTIONS);

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
    // FIX: the 100 ms of CPU run on a worker thread of Vert.x's shared pool; the event loop only hands the task
    // over and, later, sends the answer (the callbacks below run back on this verticle's event loop).
    // ordered=false: two hashes have nothing to do with each other, so neither need queue behind the other.
    // An invalid password throws on the worker thread and arrives here as a failed future.
    vertx.executeBlocking(() -> hasher.hash(password), false)
        .onSuccess(hash -> ctx.json(new JsonObject().put("hash", hash)))
        .onFailure(failure -> answerError(ctx, "hashing failed", failure));
  }

  private void lookUpUser(RoutingContext ctx) {
    String id = ctx.pathParam("id");
    // FIX: the blocking call runs on the directory's own pool. ordered=false matters here: by default the tasks
    // that one context submits run one after the other, so a slow lookup for one user would hold up every other
    // user's lookup, with three of the pool's four threads idle.
    directoryPool.executeBlocking(() -> directory.displayName(id), false)
        .onSuccess(name -> ctx.json(new JsonObject().put("id", id).put("name", name)))
        // FIX: the LegacyDirectoryException is thrown on the worker thread, so no try/catch here could see it: it
        // fails the future instead, and this is where it becomes the caller's 500.
        .onFailure(err -> answerError(ctx, "directory lookup failed", err));
  }

  /** HTTP 500 with the reason in the body, so that the caller learns what went wrong. */
  private static void answerError(RoutingContext ctx, String what, Throwable cause) {
    ctx.response()
        .setStatusCode(500)
        .putHeader("content-type", "text/plain; charset=utf-8")
        .end(what + ": " + cause.getMessage());
  }
}
