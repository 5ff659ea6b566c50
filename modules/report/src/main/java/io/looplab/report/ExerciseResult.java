package io.looplab.report;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The result of grading one exercise, in the shape of the report contract (docs/report-format.md). The grading JVM
 * builds one after every test; the kit then rewrites it for whatever stopped that JVM early (a time limit, a crash, a
 * compile error) and adds its notes. Each rewrite returns a new result: a report once handed over never changes.
 *
 * @param fixedStatus the status a rewrite set, or null: then {@link #status()} is derived from the tests
 * @param note        the kit's own words for the whole exercise, or null; {@link #message()} is what a report says
 */
public record ExerciseResult(String id, String title, List<TestResult> tests, ExerciseStatus fixedStatus,
    String note) {

  public ExerciseResult {
    tests = List.copyOf(tests);
  }

  /** The result of {@code tests} as they stand, with no rewrite and no note. */
  public static ExerciseResult of(String id, String title, List<TestResult> tests) {
    return new ExerciseResult(id, title, tests, null, null);
  }

  public int points() {
    return tests.stream().mapToInt(TestResult::points).sum();
  }

  public int max() {
    return tests.stream().mapToInt(TestResult::max).sum();
  }

  /** Full marks, and there were marks to get. */
  public boolean isComplete() {
    return max() > 0 && points() == max();
  }

  public ExerciseStatus status() {
    if (fixedStatus != null) {
      return fixedStatus;
    }
    if (isNotGraded()) {
      return ExerciseStatus.ERROR;
    }
    return isComplete() && tests.stream().allMatch(TestResult::passed) ? ExerciseStatus.PASSED : ExerciseStatus.FAILED;
  }

  /** Whether some test could not judge the code because the grader or the machine failed. */
  public boolean isNotGraded() {
    return fixedStatus == null && tests.stream().anyMatch(TestResult::notGraded);
  }

  /**
   * A message for the whole exercise: a compile error, a crash, a time-out, where the graded code came from; for an
   * exercise not graded, why, from its first test not graded.
   */
  public String message() {
    if (note == null && isNotGraded()) {
      return tests.stream().filter(TestResult::notGraded).findFirst().map(TestResult::message).orElse(null)
          + " The kit graded it twice when it could; this is no lost point of the code's.";
    }
    return note;
  }

  /** This result with {@code added} before any note already there. */
  public ExerciseResult withNote(String added) {
    return new ExerciseResult(id, title, tests, fixedStatus, note == null ? added : added + " " + note);
  }

  /** The code (or the tests against it) did not compile: every test is lost, with the reason. */
  public ExerciseResult failedToCompile(String reason) {
    List<TestResult> lost = tests.stream().map(t -> t.recorded(TestStatus.FAILED, "Not graded: " + reason)).toList();
    return new ExerciseResult(id, title, lost, ExerciseStatus.COMPILE_ERROR, reason);
  }

  /** Every test not graded, for {@code reason}: the kit cannot believe what the grading JVM said. */
  public ExerciseResult notGradedBecause(String reason) {
    return new ExerciseResult(id, title, tests.stream().map(t -> t.recordedNotGraded(reason)).toList(), fixedStatus,
        note);
  }

  /**
   * The kit stopped the grading JVM at the time limit, while {@code running} (or null) ran; {@code where} is where
   * the test's thread was then ("still running your code, add() at Adder.java:4 ..."), or null when the JVM could
   * not say.
   */
  public ExerciseResult stoppedAtTimeLimit(long limitSeconds, String running, String where) {
    List<TestResult> cut = cutShort(running, TestStatus.TIMEOUT, "Did not finish within the exercise's time limit of "
        + limitSeconds + " s, so the grader stopped it" + (where == null
            ? ": an endless loop, or a wait for something that never happens?"
            : ". When it stopped, the test's thread was " + where));
    return new ExerciseResult(id, title, cut, ExerciseStatus.TIMEOUT,
        "Stopped after " + limitSeconds + " s" + during(running) + ".");
  }

  /** The grading JVM exited before it finished, while {@code running} (or null) ran. */
  public ExerciseResult crashed(int exitCode, long droppedBytes, Path log, String running) {
    return crashed(exitCode, droppedBytes, log, running, List.of());
  }

  /**
   * As {@link #crashed(int, long, Path, String)}, with where the code calls System.exit or Runtime.exit
   * ({@code "System.exit at Adder.java:12"}): the test that was running is told that line instead of a question.
   */
  public ExerciseResult crashed(int exitCode, long droppedBytes, Path log, String running, List<String> exitCalls) {
    String why = exitCalls.isEmpty()
        ? "Does the code call System.exit, or run out of memory?"
        : "Your code calls " + String.join(", and ", exitCalls) + ": that ends the whole JVM, and the tests with it. "
            + "Return, or fail a future, instead.";
    List<TestResult> cut = cutShort(running, TestStatus.ERROR, "The test JVM stopped during this test (exit status "
        + exitCode + "). " + why + " Its output is in " + log + ".");
    return new ExerciseResult(id, title, cut, ExerciseStatus.CRASHED, "The test JVM stopped (exit status " + exitCode
        + ")" + during(running) + (droppedBytes > 0 ? "; " + droppedBytes + " bytes of output were dropped" : "")
        + ". Output: " + log);
  }

  private static String during(String running) {
    return running == null ? "" : " while running '" + running + "'";
  }

  /** The test that was running (or the first pending one) gets the blame; the rest were never run. */
  private List<TestResult> cutShort(String running, TestStatus status, String why) {
    List<TestResult> cut = new ArrayList<>();
    boolean blamed = false;
    for (TestResult t : tests) {
      if (!t.isPending()) {
        cut.add(t);
      } else if (!blamed && (running == null || Objects.equals(running, t.name()))) {
        cut.add(t.recorded(status, why));
        blamed = true;
      } else {
        cut.add(t.recorded(TestStatus.SKIPPED, "Not run: the exercise was stopped before this test."));
      }
    }
    return cut;
  }
}
