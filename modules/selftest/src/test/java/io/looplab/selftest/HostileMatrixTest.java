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
 * happened, and a complete report. (An endless loop, a flood of stdout and System.exit are also graded in the
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
   * One misbehaviour: the code put before the hook, whether the exercise must lose points by it (null: either; a
   * flood of output on the event loop is a stall in its own right), the status it must end in (null: any), and
   * words its report must say. ONCE makes a statement run at the first reservation only.
   */
  record Case(String name, String code, Boolean losesPoints, ExerciseStatus status, String says) {
  }

  private static final String ONCE = "if (System.getProperty(\"hostile.once\") == null && System.setProperty(\"hostile.once\", \"y\") == null) ";

  private static final List<Case> CASES = List.of(
      new Case("System.exit(0)", "System.exit(0);", true, ExerciseStatus.CRASHED, "exit status 0"),
      new Case("Runtime.halt(1)", "Runtime.getRuntime().halt(1);", true, ExerciseStatus.CRASHED, "exit status 1"),
      new Case("a list that grows until the heap is full", ONCE + "{ java.util.List<long[]> hog = new "
          + "java.util.ArrayList<>(); for (int i = 0; i >= 0; i++) hog.add(new long[1 << 20]); }", true,
          ExerciseStatus.CRASHED, "ran out of memory"),
      new Case("50 MB written to stderr", ONCE + "for (int i = 0; i < 500_000; i++) System.err.println(\"x\".repeat(99));",
          null, null, "bytes of output were dropped"),
      new Case("50 MB written to stdout", ONCE + "for (int i = 0; i < 500_000; i++) System.out.println(\"x\".repeat(99));",
          null, null, "bytes of output were dropped"),
      new Case("a non-daemon thread that never ends, started at every reservation", "new Thread(() -> { while (true) "
          + "{ try { Thread.sleep(1000); } catch (InterruptedException e) { } } }).start();", true, ExerciseStatus.FAILED,
          "Still running after undeploy"));

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
      Path seatCounter = submission.resolve(VICTIM).resolve("src/main/java").resolve(FILE);
      String code = Files.readString(seatCounter);
      assertTrue(code.contains(HOOK), "the reference SeatCounter changed: update HostileMatrixTest.HOOK");
      Files.writeString(seatCounter, code.replace(HOOK, "    " + c.code() + "\n" + HOOK));
      graded.put(c.name(), Gradings.queue(() -> grade(submission, List.of(VICTIM, NEIGHBOUR))));
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
