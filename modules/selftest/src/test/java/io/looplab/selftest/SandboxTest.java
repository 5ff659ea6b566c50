package io.looplab.selftest;

import io.looplab.cli.engine.GradingEngine;
import io.looplab.cli.engine.Kit;
import io.looplab.cli.engine.Sandbox;
import io.looplab.cli.engine.Target;
import io.looplab.grader.internal.scoring.ExerciseReport;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a submission can reach when graded in the sandbox (bubblewrap; see {@link Sandbox}): not the grader's home
 * folder, and no network interface but loopback. Isolation is shown by listing interfaces, never by connecting
 * anywhere. .ci/run installs bubblewrap and sets looplab.require.bwrap, so that CI fails rather than skips here.
 */
class SandboxTest {

  /** What the submission's own Adder.java names its probe file (hostile-submissions/writes-into-home). */
  private static final String PROBE = "looplab-sandbox-probe.txt";
  private static final Path HOME = Path.of(System.getProperty("user.home"));

  @TempDir
  static Path work;

  static Kit kit;
  static Sandbox sandbox;
  static List<String> homeBefore;
  static CompletableFuture<Graded> homeWriter;
  static CompletableFuture<Graded> interfaceLister;

  /** A grading's report and what the submission printed. */
  record Graded(ExerciseReport report, String output) {
  }

  @BeforeAll
  static void gradeInTheSandbox() throws IOException {
    var here = Sandbox.onThisMachine();
    if (here.isEmpty()) {
      assertFalse(Boolean.getBoolean("looplab.require.bwrap"), "looplab.require.bwrap is set, but bubblewrap does "
          + "not work here: .ci/run installs Debian's bubblewrap package");
      Assumptions.abort("no working bubblewrap on this machine (CI installs it): submissions are not sandboxed");
    }
    sandbox = here.get();
    kit = HostileKit.copyTo(work.resolve("kit"));
    Files.deleteIfExists(HOME.resolve(PROBE));
    homeBefore = homeEntries();
    homeWriter = Gradings.queue("sandbox writes-into-home", () -> graded("writes-into-home"));
    interfaceLister = Gradings.queue("sandbox lists-network-interfaces", () -> graded("lists-network-interfaces"));
  }

  private static Graded graded(String submission) throws IOException {
    try (GradingEngine engine = new GradingEngine(kit, false, sandbox)) {
      ExerciseReport report = engine.grade(kit.find("01-smoke"), Target.submission(kit,
          HostileKit.submission(submission)), (e, doing) -> { });
      return new Graded(report, Files.readString(engine.lastLog().orElseThrow()));
    }
  }

  private static List<String> homeEntries() throws IOException {
    try (Stream<Path> entries = Files.list(HOME)) {
      return entries.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  @DisplayName("a submission cannot write into the home folder: the write fails, and the folder is as it was")
  void homeFolderIsReadOnly() throws Exception {
    Graded graded = homeWriter.get();
    assertTrue(graded.output().contains("HOME WRITE: refused"), "the submission's write into " + HOME + " was not "
        + "refused; it printed:\n" + graded.output().lines().filter(l -> l.startsWith("HOME WRITE")).toList());
    assertFalse(Files.exists(HOME.resolve(PROBE)), HOME.resolve(PROBE) + " was written by a sandboxed submission");
    assertEquals(homeBefore, homeEntries(), "the home folder's entries changed during the sandboxed grading");
    assertEquals(5, graded.report().points(), "the refused write must not cost a correct submission its points");
  }

  @Test
  @DisplayName("a submission sees loopback alone among the network interfaces, and the graded tests still serve on it")
  void onlyLoopbackIsVisible() throws Exception {
    Graded graded = interfaceLister.get();
    List<String> seen = graded.output().lines().filter(l -> l.startsWith("INTERFACES: ")).toList();
    assertFalse(seen.isEmpty(), "the submission printed no interface list:\n" + graded.output());
    assertEquals("INTERFACES: lo", seen.get(0), "a sandboxed submission saw more than loopback");
    assertEquals(5, graded.report().points(), "the handler test (a Vert.x server on 127.0.0.1) must still pass");
  }
}
