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
  static final int SUBMISSION_LIMIT = 2 * 1024 * 1024;

  private final SessionOptions options;
  private final SessionStore store;
  private final Secrets secrets = new Secrets();
  private final String code;
  private final String key;
  /**
   * Opens the projector's view and nothing else: its URL is on the screen the room sees, so it must not be the
   * instructor's key, which reads every learner's name and details.
   */
  private final String projectorKey;
  private final RateLimit rateLimit;
  /** Open /events streams; touched only on the server's event loop. */
  private final java.util.Set<io.vertx.core.http.HttpServerResponse> listeners = new java.util.HashSet<>();
  private final SubmissionGrader grader;
  private Vertx vertx;
  private HttpServer http;

  private SessionServer(SessionOptions options, SessionStore store, String code, String key, String projectorKey,
      RateLimit rateLimit, SubmissionGrader grader) {
    this.grader = grader;
    this.options = options;
    this.store = store;
    this.code = code;
    this.key = key;
    this.projectorKey = projectorKey;
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
            .compose(key -> store.meta("projector", secrets.secret())
                .map(projector -> new SessionServer(options, store, code, key, projector, limit, grader))))
        .compose(server -> server.listen(vertx))
        .onFailure(failure -> store.close()));
  }

  private Future<SessionServer> listen(Vertx vertx) {
    this.vertx = vertx;
    Router router = Router.router(vertx);
    router.get("/api/ping").handler(this::ping);
    router.post("/api/join").handler(BodyHandler.create(false).setBodyLimit(BODY_LIMIT)).handler(this::join);
    router.post("/api/results").handler(BodyHandler.create(false).setBodyLimit(BODY_LIMIT)).handler(this::results);
    router.post("/api/submissions").handler(BodyHandler.create(false).setBodyLimit(SUBMISSION_LIMIT))
        .handler(this::submissions);
    router.get("/class.html").handler(ctx -> instructor(ctx).onSuccess(v -> classHtml(ctx)));
    router.get("/").handler(ctx -> instructor(ctx).onSuccess(v -> page(ctx, true)));
    router.get("/projector").handler(ctx -> viewer(ctx).onSuccess(v -> page(ctx, false)));
    router.get("/class.csv").handler(ctx -> instructor(ctx).onSuccess(v -> csv(ctx)));
    // The stream carries standings and opaque cell ids, no names: the projector's page may listen too.
    router.get("/events").handler(ctx -> viewer(ctx).onSuccess(v -> events(ctx)));
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

  private void submissions(RoutingContext ctx) {
    Submission submission = Submission.parse(body(ctx));
    authenticated(ctx)
        .compose(learner -> limited(ctx, learner))
        .compose(learner -> {
          String id = learner.id() + "-" + submission.id().replaceAll("[^A-Za-z0-9_-]", "_");
          return store.storeSubmission(id, learner.id()).compose(fresh -> {
            if (!fresh) {
              return Future.succeededFuture(id);
            }
            java.nio.file.Path folder = options.dataDir().toAbsolutePath().resolve("submissions").resolve(id);
            return write(folder, submission).onSuccess(v -> grade(id, learner, folder.resolve("exercises")))
                .map(id);
          });
        })
        .onSuccess(id -> json(ctx, 202, new JsonObject().put("submission", id)))
        .onFailure(ctx::fail);
  }

  /** Writes the files with Vert.x's asynchronous file system, so the loop never waits on the disk. */
  private Future<Void> write(java.nio.file.Path folder, Submission submission) {
    io.vertx.core.file.FileSystem fs = vertx.fileSystem();
    Future<Void> chain = Future.succeededFuture();
    for (java.util.Map.Entry<String, byte[]> file : submission.files().entrySet()) {
      java.nio.file.Path target = folder.resolve(file.getKey());
      chain = chain.compose(v -> fs.mkdirs(target.getParent().toString()))
          .compose(v -> fs.writeFile(target.toString(), io.vertx.core.buffer.Buffer.buffer(file.getValue())));
    }
    return chain;
  }

  /**
   * Grades on a worker, ordered: one grading at a time, in the order submitted, since each may take minutes of
   * CPU. A grader that throws leaves the submission in status error with its reason; the server goes on.
   */
  private void grade(String id, SessionStore.Learner learner, java.nio.file.Path exercises) {
    vertx.executeBlocking(() -> grader.gradeWithStandings(learner.name(), exercises), true)
        .compose(outcome -> {
          io.vertx.core.json.JsonArray graded = new io.vertx.core.json.JsonArray();
          for (io.looplab.report.ExerciseResult r : outcome.results()) {
            graded.add(new JsonObject().put("exercise", r.id()).put("title", r.title()).put("points", r.points())
                .put("max", r.max()).put("status", r.status().toString())
                .put("standing", io.looplab.report.Standing.of(r, outcome.notStarted().contains(r.id())).word()));
          }
          return store.gradedSubmission(id, "graded", null, graded.encode());
        }, failure -> store.gradedSubmission(id, "error", String.valueOf(failure.getMessage()), null))
        .onComplete(done -> publishSubmission(id));
  }

  private void publishSubmission(String id) {
    String data = new JsonObject().put("submission", id).encode();
    for (io.vertx.core.http.HttpServerResponse listener : java.util.List.copyOf(listeners)) {
      if (!listener.closed()) {
        listener.write("event: submission\ndata: " + data + "\n\n");
      }
    }
  }

  private void classHtml(RoutingContext ctx) {
    store.learners().compose(learners -> store.submissions().map(subs -> {
      java.util.Map<String, String> names = new java.util.HashMap<>();
      learners.forEach(l -> names.put(l.id(), l.name()));
      StringBuilder html = new StringBuilder("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Class report"
          + "</title></head><body><h1>Graded submissions</h1><table><tr><th>Learner</th><th>Submission</th>"
          + "<th>Status</th><th>Exercise</th><th>Standing</th><th>Points</th></tr>");
      for (JsonObject sub : subs) {
        String who = LivePage.escape(names.getOrDefault(sub.getString("learner"), "?"));
        String status = sub.getString("status");
        if (sub.getString("results") == null) {
          String reason = sub.getString("reason") == null ? "" : ": " + sub.getString("reason");
          html.append("<tr><td>").append(who).append("</td><td>").append(LivePage.escape(sub.getString("id")))
              .append("</td><td>").append(LivePage.escape(status + reason)).append("</td><td></td><td></td><td></td></tr>");
          continue;
        }
        for (Object o : new io.vertx.core.json.JsonArray(sub.getString("results"))) {
          JsonObject r = (JsonObject) o;
          html.append("<tr><td>").append(who).append("</td><td>").append(LivePage.escape(sub.getString("id")))
              .append("</td><td>").append(status).append("</td><td>").append(LivePage.escape(r.getString("exercise")))
              .append("</td><td class=\"").append(r.getString("standing")).append("\">").append(r.getString("standing"))
              .append("</td><td>").append(r.getInteger("points")).append("/").append(r.getInteger("max"))
              .append("</td></tr>");
        }
      }
      return html.append("</table></body></html>").toString();
    })).onSuccess(html -> ctx.response().putHeader("Content-Type", "text/html; charset=utf-8").end(html))
        .onFailure(ctx::fail);
  }

  /** The submissions, for tests and exports. */
  Future<java.util.List<JsonObject>> submissionRows() {
    return store.submissions();
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

  /** Fails the request with 403 unless it carries the projector's key (?view=) or the instructor's. */
  private Future<Void> viewer(RoutingContext ctx) {
    String view = ctx.request().getParam("view");
    if (view != null && java.security.MessageDigest.isEqual(view.getBytes(), projectorKey.getBytes())) {
      return Future.succeededFuture();
    }
    return instructor(ctx);
  }

  private void page(RoutingContext ctx, boolean names) {
    // The projector's page names only the projector's key, in its stream's URL as anywhere else in it.
    String events = names ? "/events?key=" + key : "/events?view=" + projectorKey;
    String projector = names ? "/projector?view=" + projectorKey : null;
    store.learners().compose(learners -> store.results().map(results -> LivePage.render(options.name(), learners,
            results, names, events, projector, java.time.Instant.now())))
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
        .put("exercise", result.exercise()).put("standing", standing.word()).put("symbol", standing.symbol())
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

  /** The projector's page: the grid without names, opened with a key that opens nothing else. */
  public String projectorUrl() {
    return "http://" + options.host() + ":" + port() + "/projector?view=" + projectorKey;
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
