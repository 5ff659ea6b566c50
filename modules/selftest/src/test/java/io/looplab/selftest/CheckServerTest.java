package io.looplab.selftest;

import io.looplab.cli.engine.Kit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * lab check through the check server, driven by the lab script's own client (check-client.sh) on a copy of the
 * hostile kit: the answers are those of a check without it, a bad id is one line and exit 2, a client that goes
 * away stops its grading, and stop_server ends the server.
 */
class CheckServerTest {

  /** A check of 01-smoke takes about 3 s; 18 s was seen at a load of 16, and the first also starts the server. */
  private static final Duration CHECK = Duration.ofSeconds(90);

  @TempDir
  Path work;
  Kit kit;

  @BeforeEach
  void copyKit() throws IOException {
    kit = HostileKit.copyTo(work.resolve("kit"));
    // The server runs with this JVM's class path: the CLI and everything it needs.
    Files.writeString(work.resolve("cli-classpath.txt"), System.getProperty("java.class.path"));
  }

  @AfterEach
  void stopServer() throws Exception {
    client("stop_server").waitFor(20, TimeUnit.SECONDS);
    assertNoProcessOfTheKitWithin(Duration.ofSeconds(30));
  }

  @Test
  @DisplayName("checks through the server say what a check says, warm or cold, and exit 0")
  void answersAsACheckDoes() throws Exception {
    for (String run : List.of("first (starts the server)", "second (warm)")) {
      Result r = check("01-smoke");
      assertEquals(0, r.status(), run + ":\n" + r.out() + r.err());
      assertTrue(r.out().contains("Score 3/5 (failed)") && r.out().contains("✗ adds two numbers"), run + ":\n"
          + r.out());
    }
    HostileKit.saveAdder(kit.root(), "solution");
    Result solved = check("01");
    assertTrue(solved.out().contains("Score 5/5 (passed)"), solved.out());
  }

  @Test
  @DisplayName("a bad id through the server is one line on stderr and exit 2")
  void badIdIsOneLine() throws Exception {
    Result r = check("99-nope");
    assertEquals(2, r.status(), r.out() + r.err());
    assertEquals(1, r.err().strip().lines().count(), r.err());
    assertTrue(r.err().startsWith("lab: unknown exercise '99-nope'"), r.err());
  }

  @Test
  @DisplayName("a client that goes away stops its grading, and the server answers the next check")
  void hangUpStopsTheGrading() throws Exception {
    check("01-smoke");
    HostileKit.saveAdder(kit.root(), "never-returns");
    Process hung = client("check_with_server 01-smoke");
    awaitLine(hung.getInputStream(), "testing");
    hung.destroy();
    assertTrue(hung.waitFor(20, TimeUnit.SECONDS), "the client should end on SIGTERM");
    HostileKit.saveAdder(kit.root(), "stub");
    Result next = check("01-smoke");
    assertTrue(next.out().contains("Score 3/5 (failed)"), next.out() + next.err());
    assertFalse(next.out().contains("timeout"), next.out());
  }

  private record Result(int status, String out, String err) {
  }

  private Result check(String id) throws Exception {
    Process p = client("check_with_server " + id + " || exit 99; exit \"$server_rc\"");
    boolean done = p.waitFor(CHECK.toSeconds(), TimeUnit.SECONDS);
    assertTrue(done, "lab check " + id + " through the server did not answer within " + CHECK.toSeconds() + " s");
    return new Result(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8),
        new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
  }

  /** bash with the lab script's variables for the kit copy, check-client.sh sourced, then {@code script}. */
  private Process client(String script) throws IOException {
    Path client = Kit.locate().root().resolve("modules/cli/src/main/sh/check-client.sh");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String prelude = "here='" + kit.root() + "'; java_bin='" + java + "'; cli_jar=''; cli_cp='"
        + work.resolve("cli-classpath.txt") + "'; . '" + client + "'; ";
    ProcessBuilder pb = new ProcessBuilder("bash", "-c", prelude + script);
    pb.environment().remove("CI");
    return pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
  }

  private static void awaitLine(InputStream out, String text) throws IOException {
    StringBuilder seen = new StringBuilder();
    int b;
    while ((b = out.read()) >= 0) {
      seen.append((char) b);
      if (seen.indexOf(text) >= 0) {
        return;
      }
    }
    throw new AssertionError("the client ended before printing \"" + text + "\":\n" + seen);
  }

  /** The server and every grading JVM it started (spares too) are gone: nothing of the kit copy still runs. */
  private void assertNoProcessOfTheKitWithin(Duration within) throws InterruptedException {
    long deadline = System.nanoTime() + within.toNanos();
    while (true) {
      List<ProcessHandle> left = ProcessHandle.allProcesses()
          .filter(p -> p.info().commandLine().orElse("").contains(kit.root().toString())).toList();
      if (left.isEmpty()) {
        return;
      }
      assertTrue(System.nanoTime() < deadline, left.size() + " process(es) of the kit still running: "
          + left.get(0).info().commandLine().orElse("?"));
      left.get(0).onExit().completeOnTimeout(left.get(0), 1, TimeUnit.SECONDS).join();
    }
  }
}
