package io.looplab.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.looplab.grader.probe.LagProbe;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The load benchmark of issue #27, run by the normal suite: 200 learners join and post at once. It asserts only
 * that nothing is lost; latency and the loop's lag are printed as figures, never asserted.
 */
class LoadBenchmarkTest {
  private static final int LEARNERS = 200;
  private static final int RESULTS_EACH = 5;

  @TempDir Path dataDir;

  @Test
  @DisplayName("200 learners posting results and submissions at once lose nothing: every id stored once, every count right")
  void twoHundredLearners() throws Exception {
    Vertx vertx = Vertx.vertx();
    AtomicInteger graded = new AtomicInteger();
    SessionServer server = SessionServer.start(vertx, new SessionOptions("127.0.0.1", 0, "load", dataDir, null),
        (name, dir) -> {
          graded.incrementAndGet();
          return List.of();
        }).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(10)).build();
    URI base = URI.create("http://127.0.0.1:" + server.port());
    ConcurrentLinkedQueue<Long> latencies = new ConcurrentLinkedQueue<>();
    try {
      LagProbe probe = LagProbe.start(vertx, 10);
      long started = System.nanoTime();
      List<CompletableFuture<Void>> learners = new ArrayList<>();
      for (int i = 0; i < LEARNERS; i++) {
        String name = "learner " + i;
        learners.add(send(http, base.resolve("/api/join"), null,
            new JsonObject().put("code", server.sessionCode()).put("name", name).encode(), latencies)
            .thenCompose(joined -> {
              String token = new JsonObject(joined.body()).getString("token");
              List<CompletableFuture<?>> posts = new ArrayList<>();
              for (int r = 0; r < RESULTS_EACH; r++) {
                // Each result posted twice, as a client's retry would: stored once.
                String body = SessionServerTest.result("r" + r, "ex-" + r, r).encode();
                posts.add(send(http, base.resolve("/api/results"), token, body, latencies)
                    .thenCompose(x -> send(http, base.resolve("/api/results"), token, body, latencies)));
              }
              if (name.endsWith("0")) {
                posts.add(send(http, base.resolve("/api/submissions"), token, new JsonObject().put("kitVersion", "1")
                    .put("id", "s").put("files", new JsonObject().put("exercises/01-x/src/main/A.java",
                        Base64.getEncoder().encodeToString("class A {}".getBytes(StandardCharsets.UTF_8))))
                    .encode(), latencies));
              }
              return CompletableFuture.allOf(posts.toArray(CompletableFuture[]::new));
            }));
      }
      CompletableFuture.allOf(learners.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
      long wallMillis = (System.nanoTime() - started) / 1_000_000;
      LagProbe.Lag lag = probe.stop();

      List<JsonObject> stored = server.results().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      assertEquals(LEARNERS * RESULTS_EACH, stored.size());
      Map<String, Integer> perLearner = new HashMap<>();
      stored.forEach(r -> perLearner.merge(r.getString("learner"), 1, Integer::sum));
      assertEquals(LEARNERS, perLearner.size());
      perLearner.values().forEach(count -> assertEquals(RESULTS_EACH, count));
      assertEquals(LEARNERS / 10, server.submissionRows().toCompletionStage().toCompletableFuture()
          .get(30, TimeUnit.SECONDS).size());

      long[] sorted = latencies.stream().mapToLong(Long::longValue).sorted().toArray();
      System.out.printf("[session benchmark] %d learners, %d requests in %d ms: latency p50 %.1f ms, p99 %.1f ms;"
              + " loop lag %s%n", LEARNERS, sorted.length, wallMillis, sorted[sorted.length / 2] / 1e6,
          sorted[(int) Math.ceil(sorted.length * 0.99) - 1] / 1e6, lag);
    } finally {
      server.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  /** Posts, fails the future on any status but 200/202, and records the latency. */
  private static CompletableFuture<HttpResponse<String>> send(HttpClient http, URI uri, String token, String body,
      ConcurrentLinkedQueue<Long> latencies) {
    HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
        .POST(HttpRequest.BodyPublishers.ofString(body));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    long start = System.nanoTime();
    return http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString()).thenApply(response -> {
      latencies.add(System.nanoTime() - start);
      if (response.statusCode() != 200 && response.statusCode() != 202) {
        throw new IllegalStateException(uri.getPath() + " answered " + response.statusCode() + ": " + response.body());
      }
      return response;
    });
  }
}
