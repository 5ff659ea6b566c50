package io.looplab.cli.session;

import io.looplab.cli.TinyKit;
import io.looplab.cli.engine.Kit;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** ./lab join against the real session server, and against addresses that are wrong, away or misbehaving. */
class JoinCommandTest {

  @TempDir
  Path dir;

  private TinyKit kit;
  private LiveSession server;

  @BeforeEach
  void setUp() throws Exception {
    kit = TinyKit.create(dir.resolve("kit"));
    server = LiveSession.start(dir.resolve("server"), 0);
  }

  @AfterEach
  void tearDown() throws Exception {
    server.close();
  }

  private Path sessionFile() {
    return kit.root().resolve(".lab/session.json");
  }

  @Test
  @DisplayName("joining with the right code stores the URL, learner, token and name (owner-only) and says whom it "
      + "joined in one line")
  void joins() throws Exception {
    TinyKit.Run run = kit.lab("", "join", server.url() + "/", server.code(), "--name", "Ada Lovelace");
    assertEquals(0, run.status(), run.err());
    assertEquals(1, run.out().strip().lines().count(), run.out());
    assertTrue(run.out().startsWith("Joined the session 'test session' at " + server.url() + " as Ada Lovelace"),
        run.out());
    JsonObject stored = new JsonObject(Files.readString(sessionFile()));
    assertEquals(server.url(), stored.getString("url"), "the address is kept without its trailing slash");
    assertEquals("Ada Lovelace", stored.getString("name"));
    assertFalse(stored.getString("token").isBlank());
    assertFalse(stored.getString("learner").isBlank());
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(sessionFile())));
  }

  @Test
  @DisplayName("the name defaults to git config user.name of the kit")
  void nameFromGit() throws Exception {
    Process git = new ProcessBuilder("git", "-C", kit.root().toString(), "config", "user.name", "Grace Hopper")
        .start();
    assertEquals(0, git.waitFor());
    TinyKit.Run run = kit.lab("", "join", server.url(), server.code());
    assertEquals(0, run.status(), run.err());
    assertEquals("Grace Hopper", JoinedSession.of(Kit.at(kit.root())).orElseThrow().name());
  }

  @Test
  @DisplayName("joining again under the same name is the same learner with a new token")
  void rejoinIsSameLearner() {
    kit.lab("", "join", server.url(), server.code(), "--name", "Ada");
    JoinedSession first = JoinedSession.of(Kit.at(kit.root())).orElseThrow();
    TinyKit.Run again = kit.lab("", "join", server.url(), server.code().toLowerCase(), "--name", "Ada");
    assertEquals(0, again.status(), again.err());
    JoinedSession second = JoinedSession.of(Kit.at(kit.root())).orElseThrow();
    assertEquals(first.learner(), second.learner());
    assertNotEquals(first.token(), second.token());
  }

  @Test
  @DisplayName("a wrong code: one line that names it, exit 2, nothing stored and no learner on the server")
  void wrongCode() throws Exception {
    TinyKit.Run run = kit.lab("", "join", server.url(), "ZZZZZZ", "--name", "Ada");
    assertEquals(2, run.status());
    assertEquals(1, run.errLine().lines().count(), run.err());
    assertTrue(run.errLine().startsWith("lab: the session at " + server.url() + " does not take the code 'ZZZZZZ'"),
        run.err());
    assertFalse(Files.exists(sessionFile()));
    assertTrue(server.instructorPage("/").contains("test session"));
    assertFalse(server.instructorPage("/").contains("Ada"), "no learner joined");
  }

  @Test
  @DisplayName("a server that is away: one line saying no server answers, exit 2, nothing stored")
  void serverAway() throws IOException {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    TinyKit.Run run = kit.lab("", "join", "http://127.0.0.1:" + port, "ABCDEF", "--name", "Ada");
    assertEquals(2, run.status());
    assertEquals(1, run.errLine().lines().count(), run.err());
    assertTrue(run.errLine().startsWith("lab: no session server answers at http://127.0.0.1:" + port
        + " (the connection was refused)"), run.err());
    assertFalse(Files.exists(sessionFile()));
  }

  @Test
  @DisplayName("a server that never answers: join gives up after its time limit with one line, nothing stored")
  void serverSilent() throws Exception {
    CountDownLatch never = new CountDownLatch(1);
    try (FakeServer silent = new FakeServer((request, out) -> never.await())) {
      TinyKit.Run run = kit.lab("", "join", silent.url(), "ABCDEF", "--name", "Ada");
      assertEquals(2, run.status());
      assertTrue(run.errLine().startsWith("lab: no session server answers at " + silent.url() + " (no "), run.err());
      assertTrue(run.errLine().contains("within 5 s"), run.err());
      assertFalse(Files.exists(sessionFile()));
    } finally {
      never.countDown();
    }
  }

  @Test
  @DisplayName("an address that answers but is not a session server: one line, exit 2, no join sent")
  void notASessionServer() throws Exception {
    try (FakeServer web = new FakeServer((request, out) -> FakeServer.json(out, 404, "<html>nope</html>"))) {
      TinyKit.Run run = kit.lab("", "join", web.url(), "ABCDEF", "--name", "Ada");
      assertEquals(2, run.status());
      assertTrue(run.errLine().startsWith("lab: " + web.url() + " answers, but it is not a Loop Lab session server"),
          run.err());
      assertEquals(1, web.requests().size(), "only the ping: the code went nowhere");
      assertFalse(Files.exists(sessionFile()));
    }
  }

  @Test
  @DisplayName("a server failing on join (500) or answering join without a token: one line, nothing stored")
  void joinRefusedOrMalformed() throws Exception {
    String ping = "{\"session\":\"s\",\"kit\":\"looplab\"}";
    try (FakeServer failing = new FakeServer((request, out) -> FakeServer.json(out,
        request.path().equals("/api/ping") ? 200 : 500, request.path().equals("/api/ping") ? ping
            : "{\"error\":\"The session server failed: boom\"}"))) {
      TinyKit.Run run = kit.lab("", "join", failing.url(), "ABCDEF", "--name", "Ada");
      assertEquals(2, run.status());
      assertTrue(run.errLine().contains("did not let you join: The session server failed: boom"), run.err());
      failing.behave((request, out) -> FakeServer.json(out, 200, request.path().equals("/api/ping") ? ping
          : "{\"learner\": 7}"));
      TinyKit.Run malformed = kit.lab("", "join", failing.url(), "ABCDEF", "--name", "Ada");
      assertEquals(2, malformed.status());
      assertTrue(malformed.errLine().contains("did not let you join"), malformed.err());
      assertFalse(Files.exists(sessionFile()));
    }
  }

  @ParameterizedTest(name = "lab join {0} CODE")
  @DisplayName("a malformed address: one line saying what an address looks like, exit 2, nothing stored")
  @ValueSource(strings = {"ftp://10.0.0.5:8080", "http://", "http://10.0.0.5:8080/api/join", "http://a b",
      "http://10.0.0.5:8080/?key=x", "http://user@10.0.0.5:8080"})
  void malformedAddress(String url) {
    TinyKit.Run run = kit.lab("", "join", url, "ABCDEF", "--name", "Ada");
    assertEquals(2, run.status(), run.out());
    assertEquals("lab: '" + url + "' is not a session server's address: it looks like http://192.168.1.20:8080 "
        + "(copy it from the line your instructor shows)", run.errLine());
    assertFalse(Files.exists(sessionFile()));
  }

  @Test
  @DisplayName("a bare host:port is taken as http://host:port")
  void bareHostAndPort() {
    TinyKit.Run run = kit.lab("", "join", server.url().substring("http://".length()), server.code(), "--name", "A");
    assertEquals(0, run.status(), run.err());
    assertEquals(server.url(), JoinedSession.of(Kit.at(kit.root())).orElseThrow().url());
  }

  @Test
  @DisplayName("join without a code, or a name of 61 characters: one line, exit 2, nothing sent or stored")
  void missingCodeOrLongName() throws Exception {
    TinyKit.Run noCode = kit.lab("", "join", server.url());
    assertEquals(2, noCode.status());
    assertTrue(noCode.errLine().startsWith("lab: join needs the session's address and code"), noCode.err());
    TinyKit.Run longName = kit.lab("", "join", server.url(), server.code(), "--name", "x".repeat(61));
    assertEquals(2, longName.status());
    assertEquals("lab: a name has 1 to 60 characters: --name \"Ada Lovelace\"", longName.errLine());
    assertFalse(Files.exists(sessionFile()));
    assertTrue(server.csvRows().isEmpty());
  }

  @Test
  @DisplayName("joining another session drops the results queued for the previous one, and says so; rejoining "
      + "the same session as the same learner keeps them")
  void anotherSessionDropsTheQueue() throws Exception {
    kit.lab("", "join", server.url(), server.code(), "--name", "Ada");
    Outbox outbox = new Outbox(Kit.at(kit.root()));
    outbox.queue(new JsonObject().put("id", outbox.newId()));
    TinyKit.Run again = kit.lab("", "join", server.url(), server.code(), "--name", "Ada");
    assertFalse(again.out().contains("dropped"), again.out());
    assertEquals(1, outbox.queued().size(), "the same learner's queue is still good");
    try (LiveSession other = LiveSession.start(dir.resolve("other"), 0)) {
      TinyKit.Run moved = kit.lab("", "join", other.url(), other.code(), "--name", "Ada");
      assertEquals(0, moved.status(), moved.err());
      assertTrue(moved.out().strip().endsWith("1 result queued for the previous session was dropped."), moved.out());
      assertTrue(outbox.queued().isEmpty());
      assertEquals(other.url(), JoinedSession.of(Kit.at(kit.root())).orElseThrow().url());
    }
  }

  @Test
  @DisplayName("join --leave forgets the session and drops what is queued; with no session it says so and changes "
      + "nothing")
  void leave() throws Exception {
    TinyKit.Run none = kit.lab("", "join", "--leave");
    assertEquals(0, none.status(), none.err());
    assertEquals("This kit is in no session: there is nothing to leave.", none.out().strip());
    kit.lab("", "join", server.url(), server.code(), "--name", "Ada");
    Outbox outbox = new Outbox(Kit.at(kit.root()));
    outbox.queue(new JsonObject().put("id", outbox.newId()));
    TinyKit.Run left = kit.lab("", "join", "--leave");
    assertEquals(0, left.status(), left.err());
    assertEquals("Left the session at " + server.url() + ": nothing more is sent (1 result still queued dropped).",
        left.out().strip());
    assertFalse(Files.exists(sessionFile()));
    assertTrue(outbox.queued().isEmpty());
    TinyKit.Run both = kit.lab("", "join", "--leave", server.url());
    assertEquals(2, both.status());
    assertEquals("lab: --leave takes nothing else: ./lab join --leave", both.errLine());
  }
}
