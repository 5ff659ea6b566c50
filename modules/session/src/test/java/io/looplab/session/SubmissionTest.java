package io.looplab.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplab.report.ExerciseResult;
import io.looplab.report.TestResult;
import io.looplab.report.TestStatus;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Submissions: stored as files under the data dir, graded on a worker, the outcome stored and pushed. */
class SubmissionTest {
  @TempDir Path dataDir;
  private Vertx vertx;
  private SessionServer server;
  private final ConcurrentLinkedQueue<String> gradedOn = new ConcurrentLinkedQueue<>();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @BeforeEach
  void start() throws Exception {
    vertx = Vertx.vertx();
    SubmissionGrader grader = (name, dir) -> {
      gradedOn.add(Thread.currentThread().getName());
      String source = Files.readString(dir.resolve("02-blocking-calls/src/main/java/X.java"));
      if (source.contains("boom")) {
        throw new IllegalStateException("the grader could not build the exercise");
      }
      return List.of(ExerciseResult.of("02-blocking-calls", "Blocking calls",
          List.of(new TestResult("k", "t", 2, TestStatus.PASSED, null, false))));
    };
    server = SessionServer.start(vertx, new SessionOptions("127.0.0.1", 0, "s", dataDir, null), grader)
        .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  @AfterEach
  void stop() throws Exception {
    server.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  private URI uri(String path) {
    return SessionCalls.uri(server, path);
  }

  private HttpResponse<String> post(String path, String token, String body) throws Exception {
    // 20 s: a 2 MiB body is among them
    return SessionCalls.post(http, server, path, token, body, Duration.ofSeconds(20));
  }

  private String join(String name) throws Exception {
    return new JsonObject(post("/api/join", null, new JsonObject().put("code", server.sessionCode())
        .put("name", name).encode()).body()).getString("token");
  }

  private static String submission(String id, String path, String content) {
    return new JsonObject().put("kitVersion", "1.0").put("id", id).put("files", new JsonObject()
        .put(path, Base64.getEncoder().encodeToString(content.getBytes(StandardCharsets.UTF_8)))).encode();
  }

  /** Reads /events until {@code count} submission events have arrived. */
  private CompletableFuture<Void> submissionEvents(int count) throws Exception {
    HttpResponse<InputStream> stream = http.send(HttpRequest.newBuilder(uri("/events?key=" + server.instructorKey()))
        .build(), HttpResponse.BodyHandlers.ofInputStream());
    BufferedReader lines = new BufferedReader(new InputStreamReader(stream.body(), StandardCharsets.UTF_8));
    lines.readLine(); // ": connected": the stream is registered before anything is posted
    return CompletableFuture.runAsync(() -> {
      try {
        int seen = 0;
        while (seen < count) {
          if ("event: submission".equals(lines.readLine())) {
            seen++;
          }
        }
        stream.body().close();
      } catch (Exception e) {
        throw new RuntimeException(e);
      }
    });
  }

  @Test
  @DisplayName("A submission is written under the data dir, graded on a worker, and a throwing grader gives status error with its reason")
  void gradedAndError() throws Exception {
    String token = join("Ada");
    CompletableFuture<Void> events = submissionEvents(2);
    String path = "exercises/02-blocking-calls/src/main/java/X.java";
    HttpResponse<String> ok = post("/api/submissions", token, submission("s1", path, "class X {}"));
    assertEquals(202, ok.statusCode(), ok.body());
    String id = new JsonObject(ok.body()).getString("submission");
    HttpResponse<String> bad = post("/api/submissions", token, submission("s2", path, "boom"));
    assertEquals(202, bad.statusCode(), bad.body());
    events.get(30, TimeUnit.SECONDS);
    assertTrue(Files.readString(dataDir.resolve("submissions").resolve(id).resolve(path)).equals("class X {}"));
    List<JsonObject> rows = server.submissionRows().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    assertEquals(2, rows.size());
    JsonObject graded = rows.stream().filter(r -> r.getString("id").equals(id)).findFirst().orElseThrow();
    assertEquals("graded", graded.getString("status"));
    assertTrue(graded.getString("results").contains("full-marks"), graded.encode());
    JsonObject failed = rows.stream().filter(r -> !r.getString("id").equals(id)).findFirst().orElseThrow();
    assertEquals("error", failed.getString("status"));
    assertEquals("the grader could not build the exercise", failed.getString("reason"));
    assertTrue(gradedOn.stream().noneMatch(t -> t.contains("eventloop")), gradedOn.toString());
    String report = http.send(HttpRequest.newBuilder(uri("/class.html?key=" + server.instructorKey())).build(),
        HttpResponse.BodyHandlers.ofString()).body();
    assertTrue(report.contains("Ada") && report.contains("2/2") && report.contains("could not build"), report);
  }

  @Test
  @DisplayName("An exercise the grader finds left as the stub stands as not started, whatever it scores; the others by their points")
  void untouchedStubIsNotStarted() throws Exception {
    server.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    SubmissionGrader grader = new SubmissionGrader() {
      @Override
      public List<ExerciseResult> grade(String name, Path dir) {
        throw new AssertionError("the server asks gradeWithStandings");
      }

      @Override
      public Graded gradeWithStandings(String name, Path dir) {
        // 05's stub earns points without any work: a score alone would call it partial
        return new Graded(List.of(
            ExerciseResult.of("02-blocking-calls", "Blocking calls",
                List.of(new TestResult("k", "t", 2, TestStatus.FAILED, "no", false))),
            ExerciseResult.of("05-promises", "Promises", List.of(new TestResult("k", "t", 3, TestStatus.PASSED, null,
                false), new TestResult("k2", "u", 3, TestStatus.FAILED, "no", false)))), java.util.Set.of("05-promises"));
      }
    };
    server = SessionServer.start(vertx, new SessionOptions("127.0.0.1", 0, "s", dataDir, null), grader)
        .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    String token = join("Ada");
    CompletableFuture<Void> events = submissionEvents(1);
    assertEquals(202, post("/api/submissions", token, submission("s1", "exercises/02-blocking-calls/src/main/java/X.java",
        "class X {}")).statusCode());
    events.get(30, TimeUnit.SECONDS);
    JsonObject row = server.submissionRows().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS).get(0);
    io.vertx.core.json.JsonArray results = new io.vertx.core.json.JsonArray(row.getString("results"));
    assertEquals(List.of("02-blocking-calls failing", "05-promises not-started"), results.stream()
        .map(r -> ((JsonObject) r).getString("exercise") + " " + ((JsonObject) r).getString("standing")).toList());
  }

  @Test
  @DisplayName("Paths outside exercises/*/src/main, with .., or absolute are refused with 400 and nothing is written")
  void badPaths() throws Exception {
    String token = join("Ada");
    for (String path : List.of("exercises/02-x/src/test/java/T.java", "exercises/02-x/src/main/../../../../etc/x",
        "/etc/passwd", "pom.xml", "exercises/../src/main/x")) {
      HttpResponse<String> response = post("/api/submissions", token, submission("s", path, "x"));
      assertEquals(400, response.statusCode(), path);
      assertTrue(new JsonObject(response.body()).getString("error").contains("exercises/*/src/main/"), path);
    }
    assertEquals(400, post("/api/submissions", token, "{\"id\": \"s\", \"kitVersion\": \"1\", \"files\": "
        + "{\"exercises/02-x/src/main/A.java\": \"not base64!\"}}").statusCode());
    assertTrue(!Files.exists(dataDir.resolve("submissions")));
  }

  @Test
  @DisplayName("A submission over 64 KiB is accepted, one over 2 MiB is refused with 413, and one without a token with 401")
  void limits() throws Exception {
    String token = join("Ada");
    CompletableFuture<Void> events = submissionEvents(1);
    String path = "exercises/02-blocking-calls/src/main/java/X.java";
    assertEquals(202, post("/api/submissions", token, submission("big", path, "x".repeat(200_000))).statusCode());
    assertEquals(413, post("/api/submissions", token, submission("huge", path, "x".repeat(2_200_000))).statusCode());
    assertEquals(401, post("/api/submissions", null, submission("anon", path, "x")).statusCode());
    events.get(30, TimeUnit.SECONDS);
  }
}
