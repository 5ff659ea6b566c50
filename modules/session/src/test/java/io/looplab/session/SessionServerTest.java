package io.looplab.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The protocol's join and results routes over real HTTP on 127.0.0.1, with an H2 store in a temporary folder (and in
 * PostgreSQL: SessionServerOnPostgresTest runs these same tests there).
 */
class SessionServerTest {
  @TempDir Path dataDir;
  /** Where this test's server keeps its state: null for the H2 file in dataDir. */
  private String databaseUrl;
  private Vertx vertx;
  private SessionServer server;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @BeforeEach
  void start() throws Exception {
    vertx = Vertx.vertx();
    databaseUrl = databaseUrl();
    server = startServer();
  }

  /** The database of one test, asked once before it starts (a restart in the test finds the same one). */
  String databaseUrl() throws Exception {
    return null;
  }

  private SessionServer startServer() throws Exception {
    SessionOptions options = new SessionOptions("127.0.0.1", 0, "test session", dataDir, databaseUrl);
    return SessionServer.start(vertx, options, (name, dir) -> List.of())
        .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  @AfterEach
  void stop() throws Exception {
    server.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  private HttpResponse<String> post(String path, String token, String body) throws Exception {
    return SessionCalls.post(http, server, path, token, body, Duration.ofSeconds(10));
  }

  private JsonObject join(String name) throws Exception {
    HttpResponse<String> response =
        post("/api/join", null, new JsonObject().put("code", server.sessionCode()).put("name", name).encode());
    assertEquals(200, response.statusCode(), response.body());
    return new JsonObject(response.body());
  }

  static JsonObject result(String id, String exercise, int points) {
    return new JsonObject().put("exercise", exercise).put("title", "Blocking calls").put("points", points)
        .put("max", 10).put("status", points == 10 ? "passed" : "failed")
        .put("standing", points == 10 ? "full-marks" : points > 0 ? "partial" : "failing")
        .put("tests", new JsonArray().add(new JsonObject().put("name", "t1").put("status", "failed")
            .put("points", 0).put("max", 1)))
        .putNull("firstFailure").put("hintsUsed", 0).put("at", "2026-12-07T07:00:00Z").put("source", "check")
        .put("id", id);
  }

  private List<JsonObject> stored() throws Exception {
    return server.results().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  @Test
  @DisplayName("A learner who joins with the code gets a token, and a result posted with it is stored")
  void joinAndPost() throws Exception {
    JsonObject ada = join("Ada");
    HttpResponse<String> posted = post("/api/results", ada.getString("token"), result("r1", "02-blocking-calls", 3).encode());
    assertEquals(202, posted.statusCode(), posted.body());
    assertEquals(true, new JsonObject(posted.body()).getBoolean("accepted"));
    List<JsonObject> stored = stored();
    assertEquals(1, stored.size());
    assertEquals(ada.getString("learner"), stored.get(0).getString("learner"));
    assertEquals(3, stored.get(0).getInteger("points"));
  }

  @Test
  @DisplayName("The same result id posted twice is stored once, and two learners' same ids do not collide")
  void storedOnce() throws Exception {
    JsonObject ada = join("Ada");
    JsonObject bob = join("Bob");
    assertEquals(202, post("/api/results", ada.getString("token"), result("r1", "02-blocking-calls", 3).encode()).statusCode());
    assertEquals(202, post("/api/results", ada.getString("token"), result("r1", "02-blocking-calls", 3).encode()).statusCode());
    assertEquals(202, post("/api/results", bob.getString("token"), result("r1", "02-blocking-calls", 5).encode()).statusCode());
    assertEquals(2, stored().size());
  }

  @Test
  @DisplayName("Joining again with the same name gives a new token for the same learner")
  void rejoin() throws Exception {
    JsonObject first = join("Ada");
    JsonObject second = join("Ada");
    assertEquals(first.getString("learner"), second.getString("learner"));
    assertNotEquals(first.getString("token"), second.getString("token"));
    assertEquals(202, post("/api/results", first.getString("token"), result("a", "01-x", 1).encode()).statusCode());
    assertEquals(202, post("/api/results", second.getString("token"), result("b", "01-x", 1).encode()).statusCode());
  }

  @Test
  @DisplayName("A wrong session code is refused with 403 and an error sentence")
  void wrongCode() throws Exception {
    HttpResponse<String> response = post("/api/join", null, new JsonObject().put("code", "WRONG1").put("name", "Eve").encode());
    assertEquals(403, response.statusCode());
    assertTrue(new JsonObject(response.body()).getString("error").contains("code"));
  }

  @Test
  @DisplayName("A result without a token, or with an unknown one, is refused with 401 and nothing is stored")
  void noToken() throws Exception {
    assertEquals(401, post("/api/results", null, result("r1", "01-x", 1).encode()).statusCode());
    assertEquals(401, post("/api/results", "0123456789abcdef", result("r1", "01-x", 1).encode()).statusCode());
    assertEquals(0, stored().size());
  }

  @Test
  @DisplayName("Malformed JSON, a missing field and a mistyped field are each refused with 400 naming the problem")
  void badBodies() throws Exception {
    String token = join("Ada").getString("token");
    HttpResponse<String> malformed = post("/api/results", token, "{\"exercise\": ");
    assertEquals(400, malformed.statusCode());
    assertTrue(new JsonObject(malformed.body()).getString("error").contains("JSON"));
    JsonObject missing = result("r1", "01-x", 1);
    missing.remove("exercise");
    HttpResponse<String> noField = post("/api/results", token, missing.encode());
    assertEquals(400, noField.statusCode());
    assertTrue(noField.body().contains("exercise"), noField.body());
    HttpResponse<String> mistyped = post("/api/results", token, result("r1", "01-x", 1).put("points", "three").encode());
    assertEquals(400, mistyped.statusCode());
    assertTrue(mistyped.body().contains("points"), mistyped.body());
    HttpResponse<String> badJoin = post("/api/join", null, "[1,2]");
    assertEquals(400, badJoin.statusCode());
    assertEquals(0, stored().size());
  }

  @Test
  @DisplayName("A body over 64 KiB is refused with 413")
  void tooBig() throws Exception {
    String token = join("Ada").getString("token");
    String big = result("r1", "01-x", 1).put("title", "x".repeat(70 * 1024)).encode();
    assertEquals(413, post("/api/results", token, big).statusCode());
    assertEquals(0, stored().size());
  }

  @Test
  @DisplayName("A server restarted on the same data dir keeps its code, key, learners and results")
  void restart() throws Exception {
    String token = join("Ada").getString("token");
    assertEquals(202, post("/api/results", token, result("r1", "01-x", 4).encode()).statusCode());
    String code = server.sessionCode();
    String key = server.instructorKey();
    server.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    server = startServer();
    assertEquals(code, server.sessionCode());
    assertEquals(key, server.instructorKey());
    assertEquals(1, stored().size());
    assertEquals(202, post("/api/results", token, result("r2", "01-x", 5).encode()).statusCode());
    assertEquals(2, stored().size());
  }

  @Test
  @DisplayName("Ping answers without a key with the session's name")
  void ping() throws Exception {
    HttpResponse<String> response = http.send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + server.port() + "/api/ping")).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(200, response.statusCode());
    assertEquals("test session", new JsonObject(response.body()).getString("session"));
    assertTrue(server.joinLine().matches("\\./lab join http://127\\.0\\.0\\.1:\\d+ [A-Z]{6}"), server.joinLine());
  }
}
