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
 * away stops its grading, stop_server ends the server, and the quick commands (list, hint...) go through a server that
 * is up.
 */
@RunsInTheHandoutClone
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

  @Test
  @DisplayName("list, hint, help, version and solution go through a server that is up, saying what they say alone")
  void quickCommandsGoThroughARunningServer() throws Exception {
    Result before = quick("list");
    assertEquals(99, before.status(), "with no server up, the quick path should step aside: " + before);
    assertFalse(Files.exists(kit.root().resolve("target/lab/server")), "a quick command should never start a server");

    check("01-smoke");
    for (String command : List.of("list", "hint 01 two", "version", "help", "help hint", "solution 01", "hint 99")) {
      Result served = quick(command);
      Result alone = alone(command);
      assertEquals(alone, served, "./lab " + command + " through the server and in a JVM of its own");
    }
    Result hint = quick("hint 01");
    assertEquals(0, hint.status(), hint.toString());
    assertTrue(hint.out().startsWith("Hint 1 of "), hint.out());
    Result next = alone("hint 01");
    assertTrue(next.out().startsWith("Hint 2 of "), "the hint given through the server moves the learner's own "
        + "ladder: " + next.out());

    for (String notQuick : List.of("check 01", "reset 01", "grade")) {
      assertEquals(99, quick(notQuick).status(), notQuick + " is not a quick command: the server should leave it");
    }
    long started = System.nanoTime();
    quick("list");
    long served = System.nanoTime() - started;
    started = System.nanoTime();
    alone("list");
    long jvm = System.nanoTime() - started;
    System.out.printf("[quick] ./lab list through the warm server: %d ms; in a JVM of its own: %d ms%n",
        served / 1_000_000, jvm / 1_000_000);
  }

  private record Result(int status, String out, String err) {
  }

  /** {@code command} through the lab script's quick path (words split at spaces); exit 99 when it stepped aside. */
  private Result quick(String command) throws Exception {
    return outcome(client("quick_with_server " + command + " || exit 99; exit \"$server_rc\""), command);
  }

  /** {@code command} as the lab script runs it without a server: a JVM of its own, from the kit's root. */
  private Result alone(String command) throws Exception {
    List<String> line = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
        .toString(), "-Dlooplab.home=" + kit.root(), "-cp", System.getProperty("java.class.path"),
        "io.looplab.cli.Lab"));
    line.addAll(List.of(command.split(" ")));
    ProcessBuilder pb = new ProcessBuilder(line).directory(kit.root().toFile());
    pb.environment().remove("CI");
    return outcome(pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start(), command);
  }

  private static Result outcome(Process p, String command) throws Exception {
    assertTrue(p.waitFor(CHECK.toSeconds(), TimeUnit.SECONDS), "./lab " + command + " did not answer within "
        + CHECK.toSeconds() + " s");
    return new Result(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8),
        new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
  }

  private Result check(String id) throws Exception {
    return outcome(client("check_with_server " + id + " || exit 99; exit \"$server_rc\""), "check " + id
        + " through the server");
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
