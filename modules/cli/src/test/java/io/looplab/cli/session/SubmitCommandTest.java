package io.looplab.cli.session;

import io.looplab.cli.TinyKit;
import io.looplab.cli.engine.Kit;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** ./lab submit: the learner's src/main of every exercise, sent whole, or a clear refusal that sends nothing. */
class SubmitCommandTest {

  @TempDir
  Path dir;

  private TinyKit kit;

  @BeforeEach
  void setUp() throws IOException {
    kit = TinyKit.create(dir.resolve("kit"));
  }

  private void joinedTo(String url) {
    new JoinedSession(url, "l1", "token-1", "Ada").save(Kit.at(kit.root()));
  }

  private static Map<String, String> filesUnder(Path root) throws IOException {
    Map<String, String> files = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path f : walk.filter(Files::isRegularFile).toList()) {
        files.put(root.relativize(f).toString(), Files.readString(f));
      }
    }
    return files;
  }

  @Test
  @DisplayName("a joined kit's src/main of every exercise reaches the real server's grader, file for file, and "
      + "submit says what it sent in one line")
  void submitsToTheRealServer() throws Exception {
    CompletableFuture<Map<String, String>> graded = new CompletableFuture<>();
    CompletableFuture<String> learner = new CompletableFuture<>();
    try (LiveSession server = LiveSession.start(dir.resolve("server"), 0, (name, exercises) -> {
      learner.complete(name);
      graded.complete(filesUnder(exercises));
      return List.of();
    })) {
      assertEquals(0, kit.lab("", "join", server.url(), server.code(), "--name", "Ada").status());
      Files.writeString(kit.stub("02-blocking-calls"), "class Task {\n  int mine = 2;\n}\n");
      TinyKit.Run run = kit.lab("", "submit");
      assertEquals(0, run.status(), run.err());
      assertEquals(1, run.out().strip().lines().count(), run.out());
      assertTrue(run.out().startsWith("Submitted 3 exercises, 3 files, "), run.out());
      assertTrue(run.out().contains(" to " + server.url() + ": the server took it as "), run.out());
      Map<String, String> files = graded.get(60, TimeUnit.SECONDS);
      assertEquals("Ada", learner.get());
      assertEquals(3, files.size(), files.toString());
      assertEquals("class Task {\n  int mine = 2;\n}\n",
          files.get("02-blocking-calls/src/main/java/lab/Task.java"));
    }
  }

  @Test
  @DisplayName("the body carries the kit's version, a fresh id per submit and only exercises/*/src/main files")
  void bodyShape() throws Exception {
    Files.writeString(kit.root().resolve("exercises/01-first-steps/src/test/java/lab/Mine.java"), "class Mine {}");
    try (FakeServer server = new FakeServer((r, out) -> FakeServer.json(out, 202, "{\"submission\":\"s-1\"}"))) {
      joinedTo(server.url());
      assertEquals(0, kit.lab("", "submit").status());
      assertEquals(0, kit.lab("", "submit").status());
      List<FakeServer.Request> posts = server.requests();
      assertEquals(2, posts.size());
      JsonObject body = new JsonObject(posts.get(0).body());
      assertEquals("Loop Lab 1.0", body.getString("kitVersion"));
      assertEquals("Bearer token-1", posts.get(0).headers().get("authorization"));
      assertEquals(List.of("exercises/01-first-steps/src/main/java/lab/Task.java",
          "exercises/02-blocking-calls/src/main/java/lab/Task.java",
          "exercises/03-execute-blocking/src/main/java/lab/Task.java"),
          body.getJsonObject("files").fieldNames().stream().sorted().toList());
      assertEquals(Files.readString(kit.stub("01-first-steps")), new String(Base64.getDecoder().decode(
          body.getJsonObject("files").getString("exercises/01-first-steps/src/main/java/lab/Task.java")),
          StandardCharsets.UTF_8));
      assertTrue(!body.getString("id").equals(new JsonObject(posts.get(1).body()).getString("id")));
    }
  }

  @Test
  @DisplayName("in no session: one line saying to join first, exit 2")
  void notJoined() {
    TinyKit.Run run = kit.lab("", "submit");
    assertEquals(2, run.status());
    assertTrue(run.errLine().startsWith("lab: this kit has joined no session, so there is nowhere to submit: "
        + "./lab join URL CODE first"), run.err());
  }

  @Test
  @DisplayName("work over 2 MiB: one line naming the biggest files, exit 2, nothing sent")
  void tooBig() throws Exception {
    byte[] noise = new byte[2 * 1024 * 1024];
    new Random(7).nextBytes(noise);
    Path big = kit.root().resolve("exercises/02-blocking-calls/src/main/resources/big.bin");
    Files.createDirectories(big.getParent());
    Files.write(big, noise);
    try (FakeServer server = new FakeServer((r, out) -> FakeServer.json(out, 202, "{}"))) {
      joinedTo(server.url());
      TinyKit.Run run = kit.lab("", "submit");
      assertEquals(2, run.status());
      assertEquals(1, run.errLine().lines().count(), run.err());
      assertTrue(run.errLine().contains("over the session's 2.0 MiB (nothing was sent); the biggest files are "
          + "exercises/02-blocking-calls/src/main/resources/big.bin (2.0 MiB), "), run.err());
      assertTrue(server.requests().isEmpty());
    }
  }

  @Test
  @DisplayName("a server away: one line saying nothing was submitted, it is not queued, run it again; exit 2")
  void serverAway() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    joinedTo("http://127.0.0.1:" + port);
    TinyKit.Run run = kit.lab("", "submit");
    assertEquals(2, run.status());
    assertEquals("lab: the session server at http://127.0.0.1:" + port + " is away (the connection was refused): "
        + "nothing was submitted, and a submission is not queued: run ./lab submit again when it is back",
        run.errLine());
    assertTrue(new Outbox(Kit.at(kit.root())).queued().isEmpty());
  }

  @Test
  @DisplayName("a token the real server does not know (401): one line saying to join again")
  void unknownToken() throws Exception {
    try (LiveSession server = LiveSession.start(dir.resolve("server"), 0)) {
      joinedTo(server.url());
      TinyKit.Run run = kit.lab("", "submit");
      assertEquals(2, run.status());
      assertTrue(run.errLine().startsWith("lab: the session at " + server.url() + " does not know this kit any "
          + "more"), run.err());
      assertTrue(run.errLine().contains("join again with ./lab join " + server.url() + " CODE"), run.err());
    }
  }

  @Test
  @DisplayName("a busy server (429) and a failing one (500): one line each with the server's reason, exit 2")
  void busyOrFailing() throws Exception {
    try (FakeServer server = new FakeServer((r, out) -> FakeServer.json(out, 429,
        "{\"error\":\"Too many posts; try again in 4 s.\"}", "Retry-After: 4"))) {
      joinedTo(server.url());
      TinyKit.Run busy = kit.lab("", "submit");
      assertEquals(2, busy.status());
      assertTrue(busy.errLine().startsWith("lab: the session server is busy: run ./lab submit again in 4 s"),
          busy.err());
      server.behave((r, out) -> FakeServer.json(out, 500, "{\"error\":\"The session server failed: disk full\"}"));
      TinyKit.Run failing = kit.lab("", "submit");
      assertEquals(2, failing.status());
      assertTrue(failing.errLine().contains("refused the submission: The session server failed: disk full"),
          failing.err());
    }
  }

  @Test
  @DisplayName("a file whose name a submission cannot carry is left out and named; the rest is sent")
  void unsendableNameLeftOut() throws Exception {
    Path odd = kit.root().resolve("exercises/01-first-steps/src/main/java/lab/My notes.txt");
    Files.writeString(odd, "notes");
    try (FakeServer server = new FakeServer((r, out) -> FakeServer.json(out, 202, "{\"submission\":\"s-1\"}"))) {
      joinedTo(server.url());
      TinyKit.Run run = kit.lab("", "submit");
      assertEquals(0, run.status(), run.err());
      assertTrue(run.out().contains("Left out, as their names have characters a submission cannot carry "
          + "(letters, digits, . _ - only): exercises/01-first-steps/src/main/java/lab/My notes.txt."), run.out());
      assertEquals(3, new JsonObject(server.requests().get(0).body()).getJsonObject("files").size());
    }
  }
}
