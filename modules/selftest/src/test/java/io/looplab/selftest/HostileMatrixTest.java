package io.looplab.selftest;

import io.looplab.cli.engine.Exercise;
import io.looplab.cli.engine.GradingEngine;
import io.looplab.cli.engine.Kit;
import io.looplab.cli.engine.Sandbox;
import io.looplab.cli.engine.Scoreboard;
import io.looplab.cli.engine.Target;
import io.looplab.grader.internal.scoring.ExerciseReport;
import io.looplab.grader.internal.scoring.ExerciseStatus;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
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
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

/**
 * Misbehaving submissions graded against the real kit, as `./lab grade --submission` grades them (in the sandbox
 * where this machine has one): each misbehaviour is put into 09-lost-update's reference solution, beside a correct
 * 10-reserve-then-confirm, which must keep its full marks. Every case ends with a status and a message that say what
 * happened, and a complete report. The last cases tamper instead: tests of the submission's own (not used, and the
 * report says so), a class in the grader's package and a link out of the submission (both refused). (An endless loop, a flood of stdout and System.exit are also graded in the
 * one-exercise hostile kit, HostileSubmissionTest, where their time limit is shorter.)
 */
class HostileMatrixTest {

  private static final Kit kit = Kit.locate();
  private static final String VICTIM = "09-lost-update";
  private static final String NEIGHBOUR = "10-reserve-then-confirm";
  private static final String FILE = "io/looplab/lostupdate/SeatCounter.java";
  /** Where a misbehaviour is put: the first line of the reservation, which every graded test reaches. */
  private static final String HOOK = "    int free = freeSeats;                                // read";

  /**
   * One misbehaviour: what it does to the victim's folder of the submission, whether the exercise must lose points
   * by it (null: either; a flood of output on the event loop is a stall in its own right), the status it must end
   * in (null: any), and words its report must say.
   */
  record Case(String name, Tamper tamper, Boolean losesPoints, ExerciseStatus status, String says) {
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

  private static void inject(Path victim, String code) throws IOException {
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

  private static final String ONCE = "if (System.getProperty(\"hostile.once\") == null && System.setProperty(\"hostile.once\", \"y\") == null) ";

  private static final List<Case> CASES = List.of(
      injected("System.exit(0)", "System.exit(0);", true, ExerciseStatus.CRASHED, "exit status 0"),
      injected("Runtime.halt(1)", "Runtime.getRuntime().halt(1);", true, ExerciseStatus.CRASHED, "exit status 1"),
      injected("a list that grows until the heap is full", ONCE + "{ java.util.List<long[]> hog = new "
          + "java.util.ArrayList<>(); for (int i = 0; i >= 0; i++) hog.add(new long[1 << 20]); }", true,
          ExerciseStatus.CRASHED, "ran out of memory"),
      injected("50 MB written to stderr", ONCE + "for (int i = 0; i < 500_000; i++) System.err.println(\"x\".repeat(99));",
          null, null, "bytes of output were dropped"),
      injected("50 MB written to stdout", ONCE + "for (int i = 0; i < 500_000; i++) System.out.println(\"x\".repeat(99));",
          null, null, "bytes of output were dropped"),
      injected("a non-daemon thread that never ends, started at every reservation", "new Thread(() -> { while (true) "
          + "{ try { Thread.sleep(1000); } catch (InterruptedException e) { } } }).start();", true, ExerciseStatus.FAILED,
          "Still running after undeploy"),
      // Tampering: only src/main is ever taken, and what would change how the tests run is refused before compiling.
      new Case("its own src/test, whose tests pass, beside code that refuses every seat", victim -> {
        inject(victim, "if (who != null) return io.vertx.core.Future.succeededFuture(false);");
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
              ".java")), true, ExerciseStatus.COMPILE_ERROR, "symbolic link"));

  @TempDir
  static Path work;
  static final Map<String, CompletableFuture<Scoreboard>> graded = new LinkedHashMap<>();
  static Sandbox sandbox;

  @BeforeAll
  static void gradeEveryCase() throws IOException {
    sandbox = Sandbox.onThisMachine().orElse(null);
    for (Case c : CASES) {
      Path submission = work.resolve("case-" + graded.size());
      copySolution(VICTIM, submission);
      copySolution(NEIGHBOUR, submission);
      c.tamper().apply(submission.resolve(VICTIM));
      graded.put(c.name(), Gradings.queue("matrix " + c.name(), () -> grade(submission, List.of(VICTIM, NEIGHBOUR))));
    }
  }

  private static void copySolution(String id, Path submission) throws IOException {
    HostileKit.copy(kit.solutionSources(kit.find(id)), submission.resolve(id).resolve("src/main/java"));
  }

  private static Scoreboard grade(Path submission, List<String> ids) {
    Target target = Target.submission(kit, submission);
    List<ExerciseReport> reports = new ArrayList<>();
    try (GradingEngine engine = new GradingEngine(kit, false, sandbox)) {
      for (String id : ids) {
        Exercise e = kit.find(id);
        reports.add(engine.grade(e, target, (x, doing) -> { }));
      }
    }
    return new Scoreboard(submission.toString(), reports);
  }

  @TestFactory
  @DisplayName("each misbehaviour costs its own exercise alone, with a status and a message that say what happened")
  Stream<DynamicTest> eachCaseIsContained() {
    return CASES.stream().map(c -> dynamicTest(c.name(), () -> {
      Scoreboard board = graded.get(c.name()).get();
      ExerciseReport victim = board.exercises().get(0);
      ExerciseReport neighbour = board.exercises().get(1);
      assertEquals(neighbour.max(), neighbour.points(), NEIGHBOUR + " is correct and must keep its marks beside "
          + c.name() + ": " + KitSelfTest.failures(neighbour));
      if (Boolean.TRUE.equals(c.losesPoints())) {
        assertNotEquals(victim.max(), victim.points(), c.name() + " in " + VICTIM + " kept full marks");
      }
      if (c.status() != null) {
        assertEquals(c.status(), victim.status(), c.name() + ": " + KitSelfTest.failures(victim));
      }
      String said = victim.toJson().encode();
      assertTrue(said.contains(c.says()), c.name() + ": the report should say \"" + c.says() + "\":"
          + KitSelfTest.failures(victim));
      JsonObject json = board.toJson();
      assertEquals(2, json.getJsonArray("exercises").size(), "the report is complete");
      assertTrue(json.getJsonArray("exercises").stream().allMatch(e -> ((JsonObject) e).getString("status") != null));
    }));
  }
}
