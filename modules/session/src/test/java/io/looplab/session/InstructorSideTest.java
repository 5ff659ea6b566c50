package io.looplab.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplab.grader.probe.LagProbe;
import io.looplab.report.Standing;
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
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The instructor's routes (key needed), the live events, the rate limit and the event loop's lag. */
class InstructorSideTest {
  @TempDir Path dataDir;
  private Vertx vertx;
  private SessionServer server;
  private final AtomicLong clock = new AtomicLong();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @BeforeEach
  void start() throws Exception {
    vertx = Vertx.vertx();
    server = SessionServer.start(vertx, new SessionOptions("127.0.0.1", 0, "Monday class", dataDir, null),
        (name, dir) -> List.of(), clock::get).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  @AfterEach
  void stop() throws Exception {
    server.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  private URI uri(String path) {
    return SessionCalls.uri(server, path);
  }

  private HttpResponse<String> get(String path) throws Exception {
    return http.send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> post(String path, String token, String body) throws Exception {
    return SessionCalls.post(http, server, path, token, body, Duration.ofSeconds(10));
  }

  private String join(String name) throws Exception {
    HttpResponse<String> response =
        post("/api/join", null, new JsonObject().put("code", server.sessionCode()).put("name", name).encode());
    assertEquals(200, response.statusCode(), response.body());
    return new JsonObject(response.body()).getString("token");
  }

  @Test
  @DisplayName("The live page, projector, events and class.csv answer 403 without the instructor key or with a wrong one")
  void keyNeeded() throws Exception {
    for (String path : List.of("/", "/projector", "/events", "/class.csv")) {
      assertEquals(403, get(path).statusCode(), path);
      assertEquals(403, get(path + "?key=0000").statusCode(), path);
    }
    assertEquals(200, http.send(HttpRequest.newBuilder(uri("/class.csv")).header("X-Instructor-Key",
        server.instructorKey()).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString())
        .statusCode());
  }

  @Test
  @DisplayName("The live page shows each learner's latest standing as a class and the class report's symbol; the projector hides names")
  void pageAndProjector() throws Exception {
    String ada = join("Ada Lovelace");
    String bob = join("Bob <b>");
    assertEquals(202, post("/api/results", ada, SessionServerTest.result("1", "02-blocking-calls", 3).encode()).statusCode());
    assertEquals(202, post("/api/results", ada, SessionServerTest.result("2", "02-blocking-calls", 10).encode()).statusCode());
    assertEquals(202, post("/api/results", bob, SessionServerTest.result("1", "02-blocking-calls", 0).encode()).statusCode());
    String page = get("/?key=" + server.instructorKey()).body();
    assertTrue(page.contains("Ada Lovelace"), page);
    assertTrue(page.contains("Bob &lt;b&gt;"), "names are escaped: " + page);
    assertTrue(page.contains("class=\"full-marks\" title=\"full marks\">✓"), page);
    assertTrue(page.contains("class=\"failing\" title=\"failing\">" + Standing.FAILING.symbol()), page);
    assertFalse(page.contains("class=\"partial\" title="), "an older result is not shown: " + page);
    String projector = get("/projector?view=" + projectorKey()).body();
    assertFalse(projector.contains("Ada"), projector);
    assertFalse(projector.contains("Bob"), projector);
    assertTrue(projector.contains("#1") && projector.contains("#2"), projector);
    String csv = get("/class.csv?key=" + server.instructorKey()).body();
    assertTrue(csv.contains("Ada Lovelace,02-blocking-calls,full-marks,10,10"), csv);
    assertTrue(csv.contains("Bob <b>,02-blocking-calls,failing,0,10"), csv);
  }

  /** The projector's key, read from the link the instructor's page gives to it. */
  private String projectorKey() throws Exception {
    java.util.regex.Matcher link = java.util.regex.Pattern.compile("href=\"/projector\\?view=([^\"]+)\"")
        .matcher(get("/?key=" + server.instructorKey()).body());
    assertTrue(link.find(), "the instructor's page links to the projector's view");
    assertTrue(server.projectorUrl().endsWith("/projector?view=" + link.group(1)), server.projectorUrl());
    return link.group(1);
  }

  @Test
  @DisplayName("The projector's link opens the projector and its stream only: its page holds neither the instructor key nor a name")
  void projectorKeyOpensTheProjectorOnly() throws Exception {
    join("Ada Lovelace");
    String view = projectorKey();
    assertNotEquals(server.instructorKey(), view);
    String projector = get("/projector?view=" + view).body();
    assertFalse(projector.contains(server.instructorKey()), "the room sees the projector's page: " + projector);
    assertFalse(projector.contains("Ada"), projector);
    assertTrue(projector.contains("/events?view=" + view), "the projector's page listens with its own key");
    for (String path : List.of("/", "/class.csv", "/class.html")) {
      assertEquals(403, get(path + "?view=" + view).statusCode(), path + " with the projector's key");
      assertEquals(403, get(path + "?key=" + view).statusCode(), path + " with the projector's key as a key");
    }
    assertEquals(403, get("/projector?view=0000").statusCode(), "a wrong projector key");
  }

  @Test
  @DisplayName("A page read with scripts off reloads itself, and each standing is explained by its symbol")
  void readableWithScriptsOff() throws Exception {
    String page = get("/?key=" + server.instructorKey()).body();
    assertTrue(page.contains("<noscript><meta http-equiv=\"refresh\" content=\"" + LivePage.RELOAD_SECONDS
        + "\"></noscript>"), page);
    for (Standing standing : Standing.values()) {
      assertTrue(page.contains("<span class=\"" + standing.word() + "\">" + standing.symbol() + "</span> "
          + standing.inWords()), standing + " in the legend: " + page);
    }
  }

  @Test
  @DisplayName("A stored result is pushed to an open /events stream, and a retried id is not pushed again")
  void events() throws Exception {
    String ada = join("Ada");
    HttpResponse<InputStream> stream = http.send(HttpRequest.newBuilder(uri("/events?key=" + server.instructorKey()))
        .build(), HttpResponse.BodyHandlers.ofInputStream());
    assertEquals(200, stream.statusCode());
    BufferedReader lines = new BufferedReader(new InputStreamReader(stream.body(), StandardCharsets.UTF_8));
    assertEquals(": connected", lines.readLine());
    post("/api/results", ada, SessionServerTest.result("1", "03-x", 3).encode());
    post("/api/results", ada, SessionServerTest.result("1", "03-x", 3).encode());
    post("/api/results", ada, SessionServerTest.result("2", "04-y", 10).encode());
    CompletableFuture<List<String>> data = CompletableFuture.supplyAsync(() -> {
      List<String> seen = new ArrayList<>();
      try {
        while (seen.size() < 2) {
          String line = lines.readLine();
          if (line.startsWith("data: ")) {
            seen.add(line);
          }
        }
      } catch (Exception e) {
        throw new RuntimeException(e);
      }
      return seen;
    });
    List<String> seen = data.get(20, TimeUnit.SECONDS);
    assertTrue(seen.get(0).contains("\"exercise\":\"03-x\"") && seen.get(0).contains("partial"), seen.toString());
    assertTrue(seen.get(1).contains("\"exercise\":\"04-y\""), "the retry was not pushed: " + seen);
    stream.body().close();
  }

  @Test
  @DisplayName("A learner posting more than 20 results in 10 s gets 429 with Retry-After, others do not, and time refills")
  void rateLimit() throws Exception {
    String ada = join("Ada");
    String bob = join("Bob");
    for (int i = 0; i < 20; i++) {
      assertEquals(202, post("/api/results", ada, SessionServerTest.result("r" + i, "01-x", 1).encode()).statusCode());
    }
    HttpResponse<String> refused = post("/api/results", ada, SessionServerTest.result("r20", "01-x", 1).encode());
    assertEquals(429, refused.statusCode());
    assertEquals("1", refused.headers().firstValue("Retry-After").orElse(""));
    assertEquals(202, post("/api/results", bob, SessionServerTest.result("r0", "01-x", 1).encode()).statusCode());
    clock.addAndGet(600_000_000L);
    assertEquals(202, post("/api/results", ada, SessionServerTest.result("r20", "01-x", 1).encode()).statusCode());
  }

  @Test
  @DisplayName("Results from eight learners at once leave the server's event loops answering within 300 ms")
  void loopStaysFree() throws Exception {
    List<String> tokens = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      tokens.add(join("learner " + i));
    }
    LagProbe probe = LagProbe.start(vertx, 5);
    List<CompletableFuture<HttpResponse<String>>> posts = new ArrayList<>();
    for (int round = 0; round < 10; round++) {
      for (String token : tokens) {
        posts.add(http.sendAsync(HttpRequest.newBuilder(uri("/api/results")).timeout(Duration.ofSeconds(20))
            .header("Authorization", "Bearer " + token)
            .POST(HttpRequest.BodyPublishers.ofString(SessionServerTest.result("id" + round, "01-x", round).encode()))
            .build(), HttpResponse.BodyHandlers.ofString()));
      }
    }
    for (CompletableFuture<HttpResponse<String>> post : posts) {
      assertEquals(202, post.get(30, TimeUnit.SECONDS).statusCode());
    }
    LagProbe.Lag lag = probe.stop();
    System.out.println("[session] event-loop lag under 80 concurrent posts: " + lag);
    assertTrue(lag.samples() > 0, "the probe ran");
    // Measured 35-100 ms max at load 4-6 on 2 cores (JIT warm-up and waiting for a core); 300 ms leaves a margin.
    assertTrue(lag.maxMillis() < 300, lag.toString());
  }
}
