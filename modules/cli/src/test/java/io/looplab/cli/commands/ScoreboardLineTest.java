package io.looplab.cli.commands;

import io.looplab.cli.engine.Console;
import io.looplab.report.ExerciseResult;
import io.looplab.report.TestResult;
import io.looplab.report.TestStatus;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** ./lab grade prints a line per exercise; the failing tests' messages only when asked for. */
class ScoreboardLineTest {

  private static final String TITLE = "Five ways to block an event loop, and their fixes";
  private static final String WHY = "Blocking call on the event loop: Files.readString, called from disclaimer() at "
      + "QuoteVerticle.java:96 (thread vert.x-eventloop-thread-0)";

  @Test
  @DisplayName("without details an exercise is one line: id, title, points/max and status, none of its tests")
  void oneLinePerExercise() {
    List<String> lines = print(failing(), false, 80);
    assertEquals(1, lines.size(), lines.toString());
    String line = lines.get(0);
    assertTrue(line.startsWith("  ✗ 02-blocking-calls ") && line.contains("Five ways"), line);
    assertTrue(line.endsWith("  5/10  failed"), line);
    assertTrue(line.length() <= 80, line.length() + " columns: " + line);
  }

  @Test
  @DisplayName("with details (--verbose, or an exercise named with --only) each failing test follows with its message")
  void detailsShowTheFailingTests() {
    List<String> lines = print(failing(), true, 200);
    String all = String.join("\n", lines);
    assertTrue(lines.size() >= 3, all);
    assertTrue(all.contains("✗ GET /disclaimer reads the file without blocking  (0/5)"), all);
    assertTrue(all.contains(WHY), all);
    assertFalse(all.contains("retries a flaky feed"), "a passing test is no detail: " + all);
  }

  @Test
  @DisplayName("an exercise the grader could not grade says why even without details: it is no lost point")
  void notGradedSaysWhy() {
    ExerciseResult r = ExerciseResult.of("02-blocking-calls", TITLE, List.of(
        TestResult.pending("[engine:junit-jupiter]/[class:x.QTest]/[method:a()]", "feed", 5)
            .recordedNotGraded("the test class's warm-up ran out of time")));
    List<String> lines = print(r, false, 80);
    assertTrue(lines.get(0).contains("error: not graded"), lines.toString());
    assertTrue(String.join(" ", lines).contains("warm-up ran out of time"), lines.toString());
  }

  @Test
  @DisplayName("a compile error is one line without details: its errors are the code's own details")
  void compileErrorIsOneLineWithoutDetails() {
    ExerciseResult r = failing().failedToCompile("Your code does not compile: 1 error\nQuoteVerticle.java:91:17: "
        + "error: ';' expected\n    int port = 8080\n                   ^");
    List<String> lines = print(r, false, 80);
    assertEquals(1, lines.size(), lines.toString());
    assertTrue(lines.get(0).endsWith("compile-error"), lines.toString());
    assertTrue(String.join("\n", print(r, true, 80)).contains("QuoteVerticle.java:91:17: error: ';' expected"));
  }

  private static ExerciseResult failing() {
    return ExerciseResult.of("02-blocking-calls", TITLE, List.of(
        TestResult.pending("[engine:junit-jupiter]/[class:x.QTest]/[method:a()]",
            "GET /quote/ACME retries a flaky feed after a backoff", 5).recorded(TestStatus.PASSED, null),
        TestResult.pending("[engine:junit-jupiter]/[class:x.QTest]/[method:b()]",
            "GET /disclaimer reads the file without blocking", 5).recorded(TestStatus.FAILED, WHY)));
  }

  private static List<String> print(ExerciseResult r, boolean details, int width) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Console console = Console.of(out, false, false, width);
    GradeCommand.scoreboardLine(console, r, console.titleWidth(TITLE.length(), Console.EXERCISE_LINE_RESERVE),
        details);
    return out.toString(StandardCharsets.UTF_8).lines().toList();
  }
}
