package io.looplab.cli.session;

import io.looplab.cli.TinyKit;
import io.looplab.cli.engine.Kit;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The outbox: results sent in order, kept while the server is away or failing, dropped when refused for good. */
class OutboxTest {

  private static final String ACCEPTED = "{\"accepted\":true}";

  @TempDir
  Path dir;

  private Kit kit;
  private Outbox outbox;
  private final SessionHttp http = new SessionHttp(Duration.ofSeconds(2), Duration.ofSeconds(5));

  @BeforeEach
  void setUp() throws IOException {
    kit = Kit.at(TinyKit.create(dir.resolve("kit")).root());
    outbox = new Outbox(kit);
  }

  private List<String> queue(int count) {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String id = outbox.newId();
      outbox.queue(new JsonObject().put("id", id).put("exercise", "02-blocking-calls").put("n", i));
      ids.add(id);
    }
    return ids;
  }

  private static JoinedSession at(String url) {
    return new JoinedSession(url, "l1", "token-1", "Ada");
  }

  private static List<String> postedIds(FakeServer server) {
    return server.requests().stream().filter(r -> r.path().equals("/api/results"))
        .map(r -> new JsonObject(r.body()).getString("id")).toList();
  }

  @Test
  @DisplayName("queued results go in the order they came, with the learner's token, and leave the queue once taken")
  void sendsInOrder() throws Exception {
    List<String> ids = queue(5);
    try (FakeServer server = new FakeServer((r, out) -> FakeServer.json(out, 202, ACCEPTED))) {
      Outbox.Sent sent = outbox.send(at(server.url()), http);
      assertEquals(new Outbox.Sent(5, 0, 0, null), sent);
      assertEquals(ids, postedIds(server));
      assertTrue(server.requests().stream().allMatch(r -> "Bearer token-1".equals(r.headers().get("authorization"))));
      assertTrue(outbox.queued().isEmpty());
    }
  }

  @Test
  @DisplayName("a result the server took (202) is never sent again by a later send")
  void neverTwiceAfterAccepted() throws Exception {
    List<String> first = queue(2);
    try (FakeServer server = new FakeServer((r, out) -> FakeServer.json(out, 202, ACCEPTED))) {
      outbox.send(at(server.url()), http);
      List<String> second = queue(1);
      outbox.send(at(server.url()), http);
      outbox.send(at(server.url()), http);
      List<String> all = new ArrayList<>(first);
      all.addAll(second);
      assertEquals(all, postedIds(server));
    }
  }

  @Test
  @DisplayName("a server away keeps everything queued; a new outbox (a restarted JVM) sends it all once it is back")
  void awayThenBack() throws Exception {
    List<String> ids = queue(3);
    FakeServer server = new FakeServer((r, out) -> FakeServer.json(out, 202, ACCEPTED));
    String url = server.url();
    server.close();
    Outbox.Sent away = outbox.send(at(url), http);
    assertEquals(0, away.sent());
    assertEquals(3, away.left());
    assertTrue(away.why().contains("is away"), away.why());
    try (FakeServer back = new FakeServer((r, out) -> FakeServer.json(out, 202, ACCEPTED))) {
      Outbox.Sent sent = new Outbox(kit).send(at(back.url()), http);
      assertEquals(3, sent.sent());
      assertEquals(ids, postedIds(back));
    }
  }

  @Test
  @DisplayName("a 500 or a 429 stops the send at that result and keeps it and every later one, in order")
  void failingServerKeepsOrder() throws Exception {
    List<String> ids = queue(3);
    List<Integer> statuses = new ArrayList<>(List.of(202, 500));
    try (FakeServer server = new FakeServer((r, out) -> {
      int status;
      synchronized (statuses) {
        status = statuses.isEmpty() ? 429 : statuses.remove(0);
      }
      FakeServer.json(out, status, status == 202 ? ACCEPTED : "{\"error\":\"busy\"}", "Retry-After: 3");
    })) {
      Outbox.Sent first = outbox.send(at(server.url()), http);
      assertEquals(1, first.sent());
      assertEquals(2, first.left());
      assertTrue(first.why().contains("500"), first.why());
      Outbox.Sent limited = outbox.send(at(server.url()), http);
      assertEquals(0, limited.sent());
      assertTrue(limited.why().contains("429"), limited.why());
      assertEquals(List.of(ids.get(0), ids.get(1), ids.get(1)), postedIds(server));
      assertEquals(2, outbox.queued().size());
    }
  }

  @Test
  @DisplayName("a result refused with 400 or 401 is dropped with one line in target/lab/session.log; the next goes")
  void refusedForGoodIsDropped() throws Exception {
    List<String> ids = queue(3);
    List<Integer> statuses = new ArrayList<>(List.of(400, 401, 202));
    try (FakeServer server = new FakeServer((r, out) -> {
      int status;
      synchronized (statuses) {
        status = statuses.remove(0);
      }
      FakeServer.json(out, status, status == 202 ? ACCEPTED : "{\"error\":\"The field \\\"title\\\" must be a "
          + "non-empty string.\"}");
    })) {
      Outbox.Sent sent = outbox.send(at(server.url()), http);
      assertEquals(new Outbox.Sent(1, 2, 0, null), sent);
      assertEquals(ids, postedIds(server));
      List<String> log = Files.readAllLines(kit.workDir().resolve("session.log"));
      assertEquals(2, log.size(), String.join("\n", log));
      assertTrue(log.get(0).contains("dropped result " + ids.get(0) + ": the session server refused it with 400: "
          + "The field \"title\" must be a non-empty string."), log.get(0));
      assertTrue(log.get(1).contains("with 401"), log.get(1));
    }
  }

  @Test
  @DisplayName("a connection closed before the answer, or a server that never answers, keeps the result queued")
  void brokenConnections() throws Exception {
    queue(1);
    try (FakeServer closing = new FakeServer((r, out) -> out.close())) {
      Outbox.Sent sent = outbox.send(at(closing.url()), http);
      assertEquals(0, sent.sent());
      assertEquals(1, sent.left());
    }
    CountDownLatch never = new CountDownLatch(1);
    try (FakeServer silent = new FakeServer((r, out) -> never.await())) {
      Outbox.Sent sent = outbox.send(at(silent.url()), new SessionHttp(Duration.ofSeconds(2),
          Duration.ofMillis(300)));
      assertEquals(1, sent.left());
      assertTrue(sent.why().contains("within 300 ms"), sent.why());
    } finally {
      never.countDown();
    }
  }

  @Test
  @DisplayName("an answer that comes in pieces is read whole")
  void answerInPieces() throws Exception {
    queue(1);
    try (FakeServer pieces = new FakeServer((r, out) -> {
      String body = ACCEPTED;
      String head = "HTTP/1.1 202 Accepted\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
          + "Connection: close\r\n\r\n";
      for (String piece : new String[] {head.substring(0, 9), head.substring(9)}) {
        out.write(piece.getBytes(StandardCharsets.US_ASCII));
        out.flush();
      }
      for (char c : body.toCharArray()) {
        out.write(("1\r\n" + c + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
      }
      out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
    })) {
      assertEquals(new Outbox.Sent(1, 0, 0, null), outbox.send(at(pieces.url()), http));
    }
  }

  @Test
  @DisplayName("a damaged file in the outbox is dropped with a line in the log; the others go")
  void damagedFile() throws Exception {
    queue(1);
    Files.writeString(outbox.dir().resolve("0000-damaged.json"), "{not json");
    try (FakeServer server = new FakeServer((r, out) -> FakeServer.json(out, 202, ACCEPTED))) {
      assertEquals(new Outbox.Sent(1, 1, 0, null), outbox.send(at(server.url()), http));
      assertTrue(Files.readString(kit.workDir().resolve("session.log")).contains("0000-damaged.json"));
    }
  }

  @Test
  @DisplayName("two senders at once: the second leaves the queue to the first, and every result is posted once")
  void oneSenderAtATime() throws Exception {
    List<String> ids = queue(3);
    CountDownLatch firstPostArrived = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    try (FakeServer server = new FakeServer((r, out) -> {
      firstPostArrived.countDown();
      release.await();
      FakeServer.json(out, 202, ACCEPTED);
    })) {
      CompletableFuture<Outbox.Sent> first = CompletableFuture.supplyAsync(() -> outbox.send(at(server.url()), http));
      assertTrue(firstPostArrived.await(10, TimeUnit.SECONDS));
      String late = outbox.newId();
      outbox.queue(new JsonObject().put("id", late));
      Outbox.Sent second = new Outbox(kit).send(at(server.url()), http);
      assertEquals(0, second.sent());
      assertEquals("another sender is at work", second.why());
      release.countDown();
      Outbox.Sent done = first.get(20, TimeUnit.SECONDS);
      assertEquals(4, done.sent(), "the first sender also took the one queued while it held the lock");
      List<String> all = new ArrayList<>(ids);
      all.add(late);
      assertEquals(all, postedIds(server));
    }
  }

  @Test
  @DisplayName("the real server's rate limit (20 posts in 10 s) stops a long queue with 429: what went is the "
      + "oldest; the rest stays queued, in order")
  void realServerRateLimit() throws Exception {
    try (LiveSession server = LiveSession.start(dir.resolve("server"), 0)) {
      var joined = http.post(server.url() + "/api/join", null,
          new JsonObject().put("code", server.code()).put("name", "Ada").encode()).body();
      JoinedSession session = new JoinedSession(server.url(), joined.getString("learner"), joined.getString("token"),
          "Ada");
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        String id = outbox.newId();
        ids.add(id);
        outbox.queue(ResultBody.of(io.looplab.report.ExerciseResult.of("02-blocking-calls", "Exercise 02",
            List.of()), false, 0, "check", java.time.Instant.now(), id));
      }
      Outbox.Sent sent = outbox.send(session, http);
      assertTrue(sent.why() != null && sent.why().contains("429"), String.valueOf(sent.why()));
      assertTrue(sent.sent() >= 20 && sent.sent() < 40, "sent " + sent.sent());
      assertEquals(40 - sent.sent(), sent.left());
      assertEquals(ids.subList(sent.sent(), 40), outbox.queued().stream()
          .map(p -> p.getFileName().toString().replace(".json", "")).toList(), "the newest stay, in order");
    }
  }

  @Test
  @DisplayName("the ids of results queued one after another sort in that order")
  void idsSortInOrder() {
    List<String> ids = queue(50);
    assertEquals(ids.stream().sorted().toList(), ids);
    assertEquals(50, ids.stream().distinct().count());
    assertEquals(ids.stream().map(id -> id + ".json").toList(),
        outbox.queued().stream().map(p -> p.getFileName().toString()).toList(), "queued() lists the results only");
  }
}
