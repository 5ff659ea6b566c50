package io.looplab.cli.session;

import io.looplab.cli.TinyKit;
import io.looplab.cli.commands.WatchCommand;
import io.looplab.cli.engine.Console;
import io.looplab.cli.engine.Kit;
import io.looplab.cli.engine.Results;
import io.looplab.report.ExerciseResult;
import io.looplab.report.TestResult;
import io.looplab.report.TestStatus;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Verdicts of ./lab check and watch in a kit that joined a session: printed as ever, queued in the outbox, sent in
 * the background, and kept while the server is away. The tiny kit's first exercise is graded for real here: one
 * graded test, which the stub fails and an answer of 42 passes.
 */
class CheckPostingTest {

  private static final String ID = "01-first-steps";

  @TempDir
  Path dir;

  private TinyKit kit;

  @BeforeEach
  void gradableKit() throws IOException {
    kit = GradableKit.create(dir.resolve("kit"));
  }

  private void solve() throws IOException {
    GradableKit.solve(kit);
  }

  private static java.util.List<String> verdict(String out) {
    return out.lines().filter(l -> !l.startsWith("  [1/1] ")).toList();
  }

  private Outbox outbox() {
    return new Outbox(Kit.at(kit.root()));
  }

  private JsonObject onlyQueued() throws IOException {
    List<Path> queued = outbox().queued();
    assertEquals(1, queued.size(), queued.toString());
    return new JsonObject(Files.readString(queued.get(0)));
  }

  @Test
  @DisplayName("a check with the session server away prints the same verdict as a check in no session, exits 0, "
      + "and queues the result in the protocol's shape")
  void serverAwaySameVerdict() throws Exception {
    TinyKit.Run alone = kit.lab("", "check", ID);
    assertEquals(0, alone.status(), alone.err());
    assertTrue(alone.out().contains("✗ answersFortyTwo"), alone.out());
    LiveSession server = LiveSession.start(dir.resolve("server"), 0);
    assertEquals(0, kit.lab("", "join", server.url(), server.code(), "--name", "Ada").status());
    server.close();

    TinyKit.Run joined = kit.lab("", "check", ID);
    assertEquals(0, joined.status(), joined.err());
    // The progress lines depend on how fast the grading JVM came up; the verdict must be the same, line for line.
    assertEquals(verdict(alone.out()), verdict(joined.out()));
    assertEquals("", joined.err());
    JsonObject body = onlyQueued();
    assertEquals(ID, body.getString("exercise"));
    assertEquals("not-started", body.getString("standing"), "the stub as shipped is not started, not failing");
    assertEquals("failed", body.getString("status"));
    assertEquals(0, body.getInteger("points"));
    assertEquals(1, body.getInteger("max"));
    assertEquals("answersFortyTwo()", body.getJsonArray("tests").getJsonObject(0).getString("name"));
    assertEquals("failed", body.getJsonArray("tests").getJsonObject(0).getString("status"));
    assertEquals("answersFortyTwo()", body.getJsonObject("firstFailure").getString("test"));
    assertTrue(body.getJsonObject("firstFailure").getString("message").contains("the answer"), body.encode());
    assertEquals(0, body.getInteger("hintsUsed"));
    assertEquals("check", body.getString("source"));
    assertEquals(outbox().queued().get(0).getFileName().toString(), body.getString("id") + ".json");
    assertTrue(java.time.Instant.parse(body.getString("at")).isAfter(java.time.Instant.now().minusSeconds(600)));
  }

  @Test
  @DisplayName("results queued while the server was away arrive, in order, once it is back; the outbox empties")
  void queuedThenDelivered() throws Exception {
    Path data = dir.resolve("server");
    LiveSession first = LiveSession.start(data, 0);
    int port = first.port();
    kit.lab("", "join", first.url(), first.code(), "--name", "Ada");
    first.close();
    kit.lab("", "hint", ID);
    kit.lab("", "hint", ID);
    kit.lab("", "check", ID);
    assertEquals(2, onlyQueued().getInteger("hintsUsed"), "hints used come from the hint ladder");
    solve();
    try (LiveSession back = LiveSession.start(data, port)) {
      TinyKit.Run run = kit.lab("", "check", ID);
      assertEquals(0, run.status(), run.err());
      // The check's own JVM waits a moment for the send; anything left goes with the next command.
      Outbox.Sent rest = outbox().send(JoinedSession.of(Kit.at(kit.root())).orElseThrow(), new SessionHttp());
      assertEquals(0, rest.left(), String.valueOf(rest.why()));
      assertTrue(outbox().queued().isEmpty());
      List<String> rows = back.csvRows();
      assertEquals(1, rows.size(), rows.toString());
      assertTrue(rows.get(0).startsWith("Ada," + ID + ",full-marks,1,1,"), "the later result is the latest: " + rows);
    }
  }

  @Test
  @DisplayName("a check in a kit that joined no session queues nothing and sends nothing")
  void noSessionNoQueue() {
    TinyKit.Run run = kit.lab("", "check", ID);
    assertEquals(0, run.status(), run.err());
    assertTrue(outbox().queued().isEmpty());
    assertTrue(Files.notExists(kit.root().resolve(".lab")), "nothing written for a session");
  }

  @Test
  @DisplayName("a watch verdict is posted too, with source watch, and reaches the live server")
  void watchVerdictIsPosted() throws Exception {
    try (LiveSession server = LiveSession.start(dir.resolve("server"), 0)) {
      kit.lab("", "join", server.url(), server.code(), "--name", "Ada");
      solve();
      // The other exercises are done already: full marks on 01 ends the watch by itself.
      Kit k = Kit.at(kit.root());
      for (String other : List.of("02-blocking-calls", "03-execute-blocking")) {
        new Results(k).save(ExerciseResult.of(other, other, List.of(new TestResult("[method:t()]", "t", 1,
            TestStatus.PASSED, null, false))));
      }
      ByteArrayOutputStream printed = new ByteArrayOutputStream();
      try (PipedOutputStream keysWriter = new PipedOutputStream();
           PipedInputStream keys = new PipedInputStream(keysWriter)) {
        WatchCommand.watch(k, k.find(ID), new Console(printed), keys, false, false);
      }
      String out = printed.toString(StandardCharsets.UTF_8);
      assertTrue(out.contains("Every exercise of the kit has full marks"), out);
      Outbox.Sent rest = outbox().send(JoinedSession.of(k).orElseThrow(), new SessionHttp());
      assertEquals(0, rest.left(), String.valueOf(rest.why()));
      List<String> rows = server.csvRows();
      assertEquals(1, rows.size(), rows.toString());
      assertTrue(rows.get(0).startsWith("Ada," + ID + ",full-marks,1,1,"), rows.toString());
    }
  }

  @Test
  @DisplayName("a watch verdict's body says source watch")
  void watchBodySaysWatch() throws Exception {
    LiveSession server = LiveSession.start(dir.resolve("server"), 0);
    kit.lab("", "join", server.url(), server.code(), "--name", "Ada");
    server.close();
    solve();
    Kit k = Kit.at(kit.root());
    for (String other : List.of("02-blocking-calls", "03-execute-blocking")) {
      new Results(k).save(ExerciseResult.of(other, other, List.of(new TestResult("[method:t()]", "t", 1,
          TestStatus.PASSED, null, false))));
    }
    try (PipedOutputStream keysWriter = new PipedOutputStream();
         PipedInputStream keys = new PipedInputStream(keysWriter)) {
      WatchCommand.watch(k, k.find(ID), new Console(new ByteArrayOutputStream()), keys, false, false);
    }
    JsonObject body = onlyQueued();
    assertEquals("watch", body.getString("source"));
    assertEquals("full-marks", body.getString("standing"));
    assertTrue(body.containsKey("firstFailure"));
    assertNull(body.getValue("firstFailure"), "no test failed");
  }
}
