package io.looplab.session;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ./lab serve --db postgresql://...: every test of SessionServerTest again (join, results stored once, bad bodies,
 * a restart that keeps the code, the key and the results), each on a database of its own in a PostgreSQL server
 * made for this class; and what a wrong URL or a database that is not there gets.
 */
class SessionServerOnPostgresTest extends SessionServerTest {
  private static ThrowawayPostgres postgres;
  private static int databases;

  @BeforeAll
  static void startPostgres() throws Exception {
    postgres = ThrowawayPostgres.start();
  }

  @AfterAll
  static void stopPostgres() throws Exception {
    if (postgres != null) {
      postgres.close();
    }
  }

  @Override
  String databaseUrl() throws Exception {
    return postgres.freshDatabase("session_" + ++databases);
  }

  @Test
  @DisplayName("A URL that is not postgresql:// stops the server's start with a sentence that says what it takes")
  void notAPostgresUrl(@TempDir Path data) throws Exception {
    String reason = startFails(data, "mysql://localhost/looplab");
    assertTrue(reason.contains("is not a postgresql:// URL") && reason.contains("or none to keep the session in an "
        + "H2 file"), reason);
  }

  @Test
  @DisplayName("A database the PostgreSQL server does not have stops the start with the server's own reason")
  void missingDatabase(@TempDir Path data) throws Exception {
    String reason = startFails(data, postgres.urlOfMissingDatabase());
    assertTrue(reason.contains("no_such_database"), reason);
  }

  private static String startFails(Path data, String url) throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      SessionServer.start(vertx, new SessionOptions("127.0.0.1", 0, "bad db", data, url), (n, d) -> List.of())
          .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      throw new AssertionError("the server started on " + url);
    } catch (ExecutionException e) {
      return String.valueOf(e.getCause().getMessage());
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }
}
