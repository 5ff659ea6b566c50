package io.looplab.cli.commands;

import io.looplab.cli.TinyKit;
import io.looplab.cli.engine.Kit;
import io.looplab.cli.engine.Results;
import io.looplab.report.ExerciseResult;
import io.looplab.report.TestResult;
import io.looplab.report.TestStatus;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The footer of lab check fits how the grading ended: it never says "fix the first ✗" when no test ran. */
class NextStepTest {

  private static final Path LOG = Path.of("target/lab/exercises/02-blocking-calls/output.log");

  @TempDir
  Path dir;
  Kit kit;
  Results results;

  @BeforeEach
  void makeKit() throws IOException {
    kit = Kit.at(TinyKit.create(dir).root());
    results = new Results(kit);
  }

  @Test
  @DisplayName("a compile error: fix the compiler's first error; no word about tests")
  void compileError() {
    ExerciseResult r = report("02-blocking-calls", false).failedToCompile("Task.java:3: error: ';' expected");
    String footer = footer(r);
    assertTrue(footer.contains("does not compile") && footer.contains("first compiler error"), footer);
    assertFalse(footer.contains("✗"), footer);
  }

  @Test
  @DisplayName("a time-out: something never completed or never stopped, and where the output is")
  void timeout() {
    ExerciseResult r = report("02-blocking-calls", false).stoppedAtTimeLimit(90, "the one test", null);
    String footer = footer(r);
    assertTrue(footer.contains("ran past their time limit") && footer.contains(LOG.toString()), footer);
  }

  @Test
  @DisplayName("a crash: the JVM ended early (exit, halt, memory), and where the output is")
  void crash() {
    ExerciseResult r = report("02-blocking-calls", false).crashed(1, 0, LOG, "the one test");
    String footer = footer(r);
    assertTrue(footer.contains("System.exit") && footer.contains(LOG.toString()), footer);
  }

  @Test
  @DisplayName("failed tests: fix the first ✗, or ask for a hint")
  void failed() {
    String footer = footer(report("02-blocking-calls", false));
    assertTrue(footer.contains("Fix the first ✗") && footer.contains("./lab hint 02-blocking-calls"), footer);
  }

  @Test
  @DisplayName("full marks: the next exercise not yet done, by its id, and how to compare with the reference")
  void fullMarksNamesTheNextExercise() {
    results.save(report("03-execute-blocking", true));
    String footer = footer(report("02-blocking-calls", true));
    assertTrue(footer.contains("Next: ./lab check 01-first-steps   (the first one not done yet: read exercises/"),
        "03 is done, so 01 is next, and the footer says why it points back:\n" + footer);
    assertTrue(footer.contains("./lab solution 02-blocking-calls"), footer);
  }

  @Test
  @DisplayName("full marks: an earlier exercise not done comes before the one right after, as in lab list")
  void fullMarksPointsBackToTheFirstNotDone() {
    // 01 and 03 not done: after 02, the first in course order is 01, not 03, the one right after.
    String footer = footer(report("02-blocking-calls", true));
    assertTrue(footer.contains("Next: ./lab check 01-first-steps   (the first one not done yet: read exercises/"),
        "01 is not done, so it comes first:\n" + footer);
  }

  @Test
  @DisplayName("full marks: the exercise right after is named with no reason given, as the natural next step")
  void fullMarksNamesTheOneRightAfter() {
    String footer = footer(report("01-first-steps", true));
    assertTrue(footer.contains("Next: ./lab check 02-blocking-calls   (read exercises/02-blocking-calls/README.md)"),
        footer);
  }

  @Test
  @DisplayName("full marks on the last exercise left: the kit is done")
  void fullMarksOnTheLastOne() {
    results.save(report("01-first-steps", true));
    results.save(report("03-execute-blocking", true));
    String footer = footer(report("02-blocking-calls", true));
    assertTrue(footer.contains("every exercise of the kit is done") && !footer.contains("Next:"), footer);
  }

  private String footer(ExerciseResult r) {
    return String.join("\n", NextStep.after(kit, results, kit.find(r.id()), r, LOG));
  }

  private static ExerciseResult report(String id, boolean full) {
    TestResult test = TestResult.pending("t", "the one test", 5);
    return ExerciseResult.of(id, "Exercise " + id, List.of(full ? test.recorded(TestStatus.PASSED, null) : test));
  }
}
