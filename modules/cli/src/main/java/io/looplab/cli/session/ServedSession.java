package io.looplab.cli.session;

import io.looplab.session.SessionOptions;
import io.looplab.session.SessionServer;
import io.looplab.session.SubmissionGrader;
import io.vertx.core.Vertx;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A running ./lab serve: the session server on a Vert.x of its own, and the address learners type. Closing it stops
 * the server (its state stays in the data folder) and the Vert.x.
 */
public final class ServedSession implements AutoCloseable {

  private static final long START_SECONDS = 60;
  private static final long CLOSE_SECONDS = 15;

  private final Vertx vertx;
  private final SessionServer server;
  private final String address;

  private ServedSession(Vertx vertx, SessionServer server, String address) {
    this.vertx = vertx;
    this.server = server;
    this.address = address;
  }

  /**
   * Starts the server with {@code options}; {@code address} is the host learners are told to type (the LAN
   * address when it listens on every interface). Fails with the server's reason, the Vert.x closed.
   */
  public static ServedSession start(SessionOptions options, String address, SubmissionGrader grader)
      throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      SessionServer server = SessionServer.start(vertx, options, grader).toCompletionStage().toCompletableFuture()
          .get(START_SECONDS, TimeUnit.SECONDS);
      return new ServedSession(vertx, server, address);
    } catch (ExecutionException | TimeoutException | InterruptedException e) {
      vertx.close().toCompletionStage().toCompletableFuture().get(CLOSE_SECONDS, TimeUnit.SECONDS);
      throw e;
    }
  }

  public String baseUrl() {
    String host = address.contains(":") ? "[" + address + "]" : address;
    return "http://" + host + ":" + server.port();
  }

  public int port() {
    return server.port();
  }

  /** What learners type. */
  public String joinLine() {
    return "./lab join " + baseUrl() + " " + server.sessionCode();
  }

  /** The projector's page, opened with its own key, which opens nothing else (its URL is on the room's screen). */
  public String projectorUrl() {
    java.net.URI given = java.net.URI.create(server.projectorUrl());
    return baseUrl() + given.getRawPath() + "?" + given.getRawQuery();
  }

  /** An instructor's page on this server, with the key. */
  public String instructorUrl(String path) {
    return baseUrl() + path + "?key=" + server.instructorKey();
  }

  @Override
  public void close() throws Exception {
    try {
      server.close().toCompletionStage().toCompletableFuture().get(CLOSE_SECONDS, TimeUnit.SECONDS);
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get(CLOSE_SECONDS, TimeUnit.SECONDS);
    }
  }
}
