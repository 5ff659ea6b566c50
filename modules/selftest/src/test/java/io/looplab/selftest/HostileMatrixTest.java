package io.looplab.selftest;

import io.looplab.grader.internal.settings.Settings;

import io.looplab.cli.engine.Exercise;
import io.looplab.cli.engine.GradingEngine;
import io.looplab.cli.engine.Kit;
import io.looplab.cli.engine.Sandbox;
import io.looplab.cli.engine.Scoreboard;
import io.looplab.cli.engine.Target;
import io.looplab.grader.internal.scoring.ReportJson;
import io.looplab.grader.internal.scoring.VerdictFormat;
import io.looplab.report.ExerciseResult;
import io.looplab.report.ExerciseStatus;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

/**
 * Misbehaving submissions graded against the real kit, as `./lab grade --submission` grades them (in the sandbox
 * where this machine has one): each misbehaviour is put into 09-lost-update's reference solution, beside a correct
 * 10-reserve-then-confirm, which must keep its full marks. Every case ends with a status and a message that say what
 * happened, and a complete report. Then tampering: tests of the submission's own (not used, and the report says so),
 * a class in the grader's package and a link out of the submission (both refused before compiling), and code that
 * reaches for the grader, by reflection, a shutdown hook, a process, Unsafe or the grader's own classes (refused
 * after compiling, naming the line, before any test runs). Last, the sandbox's probes: a
 * write into the home folder fails and leaves it as it was, and loopback is the only network interface to be seen
 * (shown by listing them, never by connecting anywhere). (A method that never returns, which only the time limit
 * stops, is graded in the one-exercise hostile kit, HostileSubmissionTest, where that limit is shorter.)
 */
class HostileMatrixTest {

  private static final Kit kit = Kit.locate();
  static final String VICTIM = "09-lost-update";
  private static final String NEIGHBOUR = "10-reserve-then-confirm";
  private static final String FILE = "io/looplab/lostupdate/SeatCounter.java";
  /** Where a misbehaviour is put: the first line of the reservation, which every graded test reaches. */
  private static final String HOOK = "    int free = freeSeats;                                // read";

  /**
   * One misbehaviour: what it does to the victim's folder of the submission, whether the exercise must lose points
   * by it (null: either; a flood of output on the event loop is a stall in its own right), the status it must end
   * in (null: any), and words its report must say.
   */
  record Case(String name, Tamper tamper, Boolean losesPoints, ExerciseStatus status, String says, String printed,
      boolean needsSandbox) {

    Case(String name, Tamper tamper, Boolean losesPoints, ExerciseStatus status, String says) {
      this(name, tamper, losesPoints, status, says, null, false);
    }

    /** A probe of the sandbox: the victim keeps its marks, and prints {@code printed} where it was refused. */
    static Case probe(String name, String code, String printed) {
      return new Case(name, victim -> inject(victim, code), false, null, null, printed, true);
    }
  }

  /** Changes the victim's folder in the submission (its src/main holds the reference solution). */
  @FunctionalInterface
  interface Tamper {
    void apply(Path victim) throws IOException;
  }

  /** Code put before the hook. ONCE makes a statement run at the first reservation only. */
  private static Case injected(String name, String code, Boolean losesPoints, ExerciseStatus status, String says) {
    return new Case(name, victim -> inject(victim, code), losesPoints, status, says);
  }

  static void inject(Path victim, String code) throws IOException {
    Path seatCounter = victim.resolve("src/main/java").resolve(FILE);
    String source = Files.readString(seatCounter);
    assertTrue(source.contains(HOOK), "the reference SeatCounter changed: update HostileMatrixTest.HOOK");
    Files.writeString(seatCounter, source.replace(HOOK, "    " + code + "\n" + HOOK));
  }

  /** A file at {@code relative} in the victim's folder. */
  private static void write(Path victim, String relative, String content) throws IOException {
    Path file = victim.resolve(relative);
    Files.createDirectories(file.getParent());
    Files.writeString(file, content);
  }

  /**
   * The refusal of code injected at the hook, which the forbidden-API check names by the hook's line in the
   * solution: {@code offence} is what it says the code does there ("calls java.lang.Runtime.halt").
   */
  private static String refusedAtTheHook(String offence) {
    return "Refused after compiling: SeatCounter.java:" + hookLine() + " " + offence;
  }

  private static int hookLine() {
    try {
      return Files.readAllLines(kit.solutionSources(kit.find(VICTIM)).resolve(FILE)).indexOf(HOOK) + 1;
    } catch (IOException e) {
      return 0; // a handout has no solutions: the matrix is not run
    }
  }

  static final String ONCE = "if (System.getProperty(\"hostile.once\") == null && System.setProperty(\"hostile.once\", \"y\") == null) ";

  /** Runs {@code body} once, in a thread of its own: a probe that must not count as blocking the event loop. */
  private static String onceInAThread(String body) {
    return ONCE + "new Thread(() -> { " + body + " }).start();";
  }

  /** The file the home-folder probe tries to write. */
  private static final String HOME_PROBE = "looplab-matrix-probe.txt";
  private static final Path HOME = Path.of(System.getProperty("user.home"));

  private static final List<Case> CASES = List.of(
      injected("System.exit(0)", "System.exit(0);", true, ExerciseStatus.CRASHED, "exit status 0"),
      // Code that reaches for the grader is refused once compiled, before it runs: the halt would have been a crash.
      injected("Runtime.halt(1)", "Runtime.getRuntime().halt(1);", true, ExerciseStatus.COMPILE_ERROR,
          refusedAtTheHook("calls java.lang.Runtime.halt (shutdown hooks and halt)")),
      injected("reflection that reaches for the scorer", "try { Class.forName(\"io.looplab.grader.internal.scoring."
          + "ScoringListener\").getDeclaredFields(); } catch (ClassNotFoundException e) { }", true,
          ExerciseStatus.COMPILE_ERROR, refusedAtTheHook("calls java.lang.Class.forName (reflection)")),
      injected("a shutdown hook that prints a verdict", "Runtime.getRuntime().addShutdownHook(new Thread(() -> "
          + "System.out.println(\"{\\\"points\\\": 100}\")));", true, ExerciseStatus.COMPILE_ERROR,
          refusedAtTheHook("calls java.lang.Runtime.addShutdownHook (shutdown hooks and halt)")),
      injected("a process started with ProcessBuilder", "try { new ProcessBuilder(\"true\").start(); } catch "
          + "(java.io.IOException e) { }", true, ExerciseStatus.COMPILE_ERROR,
          refusedAtTheHook("creates java.lang.ProcessBuilder (processes)")),
      injected("sun.misc.Unsafe", "if (who == null) { sun.misc.Unsafe.getUnsafe(); }", true,
          ExerciseStatus.COMPILE_ERROR, refusedAtTheHook("calls sun.misc.Unsafe.getUnsafe (the JDK's internals)")),
      injected("a direct reference to a class of the grader", "System.out.println(io.looplab.grader.internal.scoring."
          + "VerdictFormat.newKey());", true, ExerciseStatus.COMPILE_ERROR, refusedAtTheHook("calls io.looplab."
          + "grader.internal.scoring.VerdictFormat.newKey (the grader and its test engine)")),
      injected("a list that grows until the heap is full", ONCE + "{ java.util.List<long[]> hog = new "
          + "java.util.ArrayList<>(); for (int i = 0; i >= 0; i++) hog.add(new long[1 << 20]); }", true,
          ExerciseStatus.CRASHED, "ran out of memory"),
      injected("50 MB written to stderr", ONCE + "for (int i = 0; i < 500_000; i++) System.err.println(\"x\".repeat(99));",
          null, null, "bytes of output were dropped"),
      injected("50 MB written to stdout", ONCE + "for (int i = 0; i < 500_000; i++) System.out.println(\"x\".repeat(99));",
          null, null, "bytes of output were dropped"),
      injected("an endless loop on the event loop", ONCE + "while (who != null) { Math.sqrt(who.length()); }", true,
          ExerciseStatus.FAILED, "kept the loop busy"),
      injected("an endless loop in a worker", ONCE + "vertx.executeBlocking(() -> { while (who != null) { "
          + "Math.sqrt(who.length()); } return null; });", true, ExerciseStatus.FAILED, "was still running one task"),
      injected("a future joined on the event loop, which only that loop can complete (a deadlock)", ONCE
          + "vertx.timer(1).toCompletionStage().toCompletableFuture().join();", true, ExerciseStatus.FAILED,
          "Blocking call on the event loop"),
      injected("a non-daemon thread that never ends, started at every reservation", "new Thread(() -> { while (true) "
          + "{ try { Thread.sleep(1000); } catch (InterruptedException e) { } } }).start();", true, ExerciseStatus.FAILED,
          "Still running after undeploy"),
      // Tampering: only src/main is ever taken, and what would change how the tests run is refused before compiling.
      // Code that takes two seats a reservation fails at the first count (one that refused every seat failed as
      // surely, but only after the tests' bounded waits for checks it never asked for: 30 s against 10).
      new Case("its own src/test, whose tests pass, beside code that takes two seats a reservation", victim -> {
        inject(victim, "freeSeats--;");
        write(victim, "src/test/java/io/looplab/lostupdate/OneReservationAtATimeTest.java", "package "
            + "io.looplab.lostupdate;\nclass OneReservationAtATimeTest {\n  @org.junit.jupiter.api.Test\n  void "
            + "passes() {\n  }\n}\n");
      }, true, ExerciseStatus.FAILED, "own tests"),
      new Case("a class in the grader's own package", victim -> write(victim,
          "src/main/java/io/looplab/grader/internal/scoring/ScoringListener.java", "package "
              + "io.looplab.grader.internal.scoring;\npublic class ScoringListener {\n}\n"),
          true, ExerciseStatus.COMPILE_ERROR, "Refused before compiling"),
      new Case("a symbolic link to a file outside the submission", victim -> Files.createSymbolicLink(
          victim.resolve("src/main/java/io/looplab/lostupdate/Secret.java"), Files.createTempFile(HostileMatrixTest.work, "secret",
              ".java")), true, ExerciseStatus.COMPILE_ERROR, "symbolic link"),
      // Forging a verdict: the grading JVM's report reaches the kit only as records signed with a key the graded
      // code never sees (VerdictFormat); a record printed by the code makes the grading an error, never points, and a
      // report file written where the JVM's command line says is never read. Both victims also take two seats a
      // reservation, so a forgery that worked would show as full marks.
      injected("a verdict record printed by the code", "freeSeats--; " + ONCE + "System.out.println(\""
          + VerdictFormat.MARK + " 1 1 1 e30= \" + \"0\".repeat(64));", null, ExerciseStatus.ERROR,
          "the grading JVM's output held a verdict"),
      new Case("a full-marks report written where the command line says the report goes", victim -> inject(victim,
          "freeSeats--; " + onceInAThread("try { for (String a : new String(java.nio.file.Files.readAllBytes("
              + "java.nio.file.Path.of(\"/proc/self/cmdline\"))).split(\"\\0\")) { if (a.endsWith(\".json\")) { "
              + "java.nio.file.Files.writeString(java.nio.file.Path.of(a), \"{'report':{'id':'" + VICTIM + "',"
              + "'title':'x','tests':[]},'finished':true}\".replace('\\'', (char) 34)); System.out.println("
              + "\"FORGED: wrote \" + a); } } } catch (Exception e) { System.out.println(\"FORGED: failed: \" + e); }")),
          true, ExerciseStatus.FAILED, null, "FORGED: wrote", false),
      // The sandbox (bubblewrap): the home folder is read-only, and loopback is the only network interface.
      Case.probe("a write into the home folder", onceInAThread("java.nio.file.Path probe = java.nio.file.Path.of("
          + "System.getProperty(\"user.home\"), \"" + HOME_PROBE + "\"); try { java.nio.file.Files.writeString(probe, "
          + "\"x\"); System.out.println(\"HOME WRITE: succeeded at \" + probe); } catch (Exception e) { "
          + "System.out.println(\"HOME WRITE: refused: \" + e); }"), "HOME WRITE: refused"),
      Case.probe("a listing of the network interfaces", onceInAThread("try { System.out.println(\"INTERFACES: \" + "
          + "java.util.Collections.list(java.net.NetworkInterface.getNetworkInterfaces()).stream().map("
          + "java.net.NetworkInterface::getName).sorted().collect(java.util.stream.Collectors.joining(\",\"))); } "
          + "catch (Exception e) { System.out.println(\"INTERFACES: failed: \" + e); }"), "INTERFACES: lo\n"));

  @TempDir
  static Path work;
  static final Map<String, CompletableFuture<Graded>> graded = new LinkedHashMap<>();
  static Sandbox sandbox;
  static List<String> homeBefore;

  /** A case's report, what the victim printed (its grading JVM's log), and how long the victim's grading took. */
  record Graded(Scoreboard board, String victimOutput, long victimMillis) {
  }

  @BeforeAll
  static void gradeEveryCase() throws IOException {
    // The cases tamper with reference solutions, which a learners' handout does not have.
    Assumptions.assumeTrue(kit.hasSolutions(), "a handout has no solutions/: the hostile matrix is not run");
    sandbox = Sandbox.onThisMachine().orElse(null);
    assertFalse(sandbox == null && Settings.REQUIRE_BWRAP.isTrue(), "looplab.require.bwrap is set, but "
        + "bubblewrap does not work here: .ci/run installs Debian's bubblewrap package");
    Files.deleteIfExists(HOME.resolve(HOME_PROBE));
    homeBefore = homeEntries();
    for (Case c : CASES) {
      if (c.needsSandbox() && sandbox == null) {
        continue;
      }
      Path submission = work.resolve("case-" + graded.size());
      copySolution(VICTIM, submission);
      copySolution(NEIGHBOUR, submission);
      c.tamper().apply(submission.resolve(VICTIM));
      graded.put(c.name(), Gradings.queue("matrix " + c.name(), () -> grade(submission, List.of(VICTIM, NEIGHBOUR))));
    }
  }

  static void copySolution(String id, Path submission) throws IOException {
    HostileKit.copy(kit.solutionSources(kit.find(id)), submission.resolve(id).resolve("src/main/java"));
  }

  /** Grades the victim, then the neighbour, as --submission does, keeping what the victim printed. */
  private static Graded grade(Path submission, List<String> ids) throws IOException {
    Target target = Target.submission(kit, submission);
    List<ExerciseResult> reports = new ArrayList<>();
    String victimOutput = null;
    long victimMillis = 0;
    try (GradingEngine engine = new GradingEngine(kit, false, sandbox)) {
      for (String id : ids) {
        Exercise e = kit.find(id);
        long start = System.nanoTime();
        reports.add(engine.grade(e, target, (x, doing) -> { }));
        if (victimOutput == null) {
          victimMillis = (System.nanoTime() - start) / 1_000_000;
          Path log = engine.lastLog().orElseThrow();
          victimOutput = Files.exists(log) ? Files.readString(log, java.nio.charset.StandardCharsets.ISO_8859_1) : "";
        }
      }
    }
    return new Graded(new Scoreboard(submission.toString(), reports), victimOutput, victimMillis);
  }

  private static List<String> homeEntries() throws IOException {
    try (Stream<Path> entries = Files.list(HOME)) {
      return entries.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  /** A case's result; a sandbox case on a machine without bubblewrap was not graded, and its test is skipped. */
  private static Graded gradedOrSkipped(String name) throws Exception {
    if (!graded.containsKey(name)) {
      Assumptions.abort("no working bubblewrap on this machine (CI installs it): submissions are not sandboxed");
    }
    return graded.get(name).get();
  }

  @Test
  @DisplayName("a sandboxed submission leaves the home folder as it was")
  void homeFolderIsUntouched() throws Exception {
    gradedOrSkipped("a write into the home folder");
    assertFalse(Files.exists(HOME.resolve(HOME_PROBE)), HOME.resolve(HOME_PROBE) + " was written by a sandboxed "
        + "submission");
    assertEquals(homeBefore, homeEntries(), "the home folder's entries changed during the sandboxed grading");
  }

  @TestFactory
  @DisplayName("each misbehaviour costs its own exercise alone, with a status and a message that say what happened")
  Stream<DynamicTest> eachCaseIsContained() {
    return CASES.stream().map(c -> dynamicTest(c.name(), () -> {
      Graded result = gradedOrSkipped(c.name());
      Scoreboard board = result.board();
      ExerciseResult victim = board.exercises().get(0);
      ExerciseResult neighbour = board.exercises().get(1);
      System.out.println(tableRow(c, victim, result));
      assertEquals(neighbour.max(), neighbour.points(), NEIGHBOUR + " is correct and must keep its marks beside "
          + c.name() + ": " + KitSelfTest.failures(neighbour));
      if (Boolean.TRUE.equals(c.losesPoints())) {
        assertNotEquals(victim.max(), victim.points(), c.name() + " in " + VICTIM + " kept full marks");
      }
      if (Boolean.FALSE.equals(c.losesPoints())) {
        assertEquals(victim.max(), victim.points(), c.name() + " must not cost " + VICTIM + " its marks: "
            + KitSelfTest.failures(victim));
      }
      if (c.printed() != null) {
        assertTrue(result.victimOutput().contains(c.printed()), c.name() + ": the victim should have printed \""
            + c.printed().strip() + "\"; it printed:\n" + result.victimOutput().lines()
            .filter(l -> l.startsWith("HOME WRITE") || l.startsWith("INTERFACES")).toList());
      }
      if (c.status() != null) {
        assertEquals(c.status(), victim.status(), c.name() + ": " + KitSelfTest.failures(victim));
      }
      String said = ReportJson.contract(victim).encode();
      assertTrue(c.says() == null || said.contains(c.says()), c.name() + ": the report should say \"" + c.says()
          + "\":" + KitSelfTest.failures(victim));
      JsonObject json = board.toJson();
      assertEquals(2, json.getJsonArray("exercises").size(), "the report is complete");
      assertTrue(json.getJsonArray("exercises").stream().allMatch(e -> ((JsonObject) e).getString("status") != null));
    }));
  }

  /**
   * One line of the matrix's table, printed as each case is checked: the case, the victim's status and points, how
   * long its grading took, and the start of what its report said.
   */
  private static String tableRow(Case c, ExerciseResult victim, Graded result) {
    String said = victim.message() != null ? victim.message() : victim.tests().stream().filter(t -> !t.passed())
        .map(t -> t.name() + ": " + t.message()).findFirst().orElse("(every test passed)");
    if (c.printed() != null) {
      // A probe's line, such as "HOME WRITE: refused: ...", is what the row is about.
      String probe = c.printed().substring(0, c.printed().indexOf(':'));
      said = result.victimOutput().lines().filter(l -> l.startsWith(probe)).findFirst().orElse(probe + ": not printed")
          + "; " + said;
    }
    long millis = result.victimMillis();
    said = said.replaceAll("\\s+", " ");
    // "..." rather than an ellipsis: the build's console may not print UTF-8.
    return String.format("[matrix] %s | %s %d/%d | %.1f s | %s", c.name(), victim.status(), victim.points(),
        victim.max(), millis / 1000.0, said.length() > 200 ? said.substring(0, 200) + "..." : said);
  }
}
