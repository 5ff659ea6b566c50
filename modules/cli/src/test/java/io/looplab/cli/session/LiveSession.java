package io.looplab.cli.session;

import io.looplab.session.SessionOptions;
import io.looplab.session.SessionServer;
import io.looplab.session.SubmissionGrader;
import io.vertx.core.Vertx;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The real session server of modules/session on 127.0.0.1, for the client's tests: started, stopped, restarted. */
public final class LiveSession implements AutoCloseable {

  private final Vertx vertx;
  private final SessionServer server;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private LiveSession(Vertx vertx, SessionServer server) {
    this.vertx = vertx;
    this.server = server;
  }

  /** A server keeping its state in {@code dataDir}, on {@code port} (0: any free one), grading nothing. */
  public static LiveSession start(Path dataDir, int port) throws Exception {
    return start(dataDir, port, (name, dir) -> List.of());
  }

  public static LiveSession start(Path dataDir, int port, SubmissionGrader grader) throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      SessionServer server = SessionServer.start(vertx, new SessionOptions("127.0.0.1", port, "test session",
          dataDir, null), grader).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      return new LiveSession(vertx, server);
    } catch (Exception e) {
      vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      throw e;
    }
  }

  public String url() {
    return "http://127.0.0.1:" + server.port();
  }

  public int port() {
    return server.port();
  }

  public String instructorKey() {
    return server.instructorKey();
  }

  public String code() {
    return server.sessionCode();
  }

  /** An instructor's page (class.csv, /, /projector), read with the key. */
  public String instructorPage(String path) throws Exception {
    HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url() + path + (path.contains("?")
        ? "&" : "?") + "key=" + server.instructorKey())).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new AssertionError(path + " answered " + response.statusCode() + ": " + response.body());
    }
    return response.body();
  }

  /** class.csv's lines after its header: one per learner and exercise with a stored result. */
  public List<String> csvRows() throws Exception {
    return instructorPage("/class.csv").lines().skip(1).filter(l -> !l.isBlank()).toList();
  }

  @Override
  public void close() throws Exception {
    server.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }
}
