package io.looplab.grader.internal.scoring;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The result of grading one exercise, in the shape of the report contract (docs/report-format.md). The grading JVM
 * writes it as it goes (see {@link InFlightReport}); the kit then rewrites it for whatever stopped that JVM early:
 * a time limit, a crash, a compile error.
 */
public final class ExerciseReport {

  private final String id;
  private final String title;
  private final List<TestReport> tests;
  /** Set by a rewrite; otherwise derived from the tests. */
  private ExerciseStatus status;
  private String message;

  public ExerciseReport(String id, String title, List<TestReport> tests) {
    this.id = id;
    this.title = title;
    this.tests = new ArrayList<>(tests);
  }

  public String id() {
    return id;
  }

  public String title() {
    return title;
  }

  public List<TestReport> tests() {
    return tests;
  }

  public int points() {
    return tests.stream().mapToInt(TestReport::points).sum();
  }

  public int max() {
    return tests.stream().mapToInt(TestReport::max).sum();
  }

  /** Full marks, and there were marks to get. */
  public boolean isComplete() {
    return max() > 0 && points() == max();
  }

  public ExerciseStatus status() {
    if (status != null) {
      return status;
    }
    if (isNotGraded()) {
      return ExerciseStatus.ERROR;
    }
    return isComplete() && tests.stream().allMatch(TestReport::passed) ? ExerciseStatus.PASSED : ExerciseStatus.FAILED;
  }

  /** Whether some test could not judge the code because the grader or the machine failed. */
  public boolean isNotGraded() {
    return status == null && tests.stream().anyMatch(TestReport::notGraded);
  }

  /** A message for the whole exercise: a compile error, a crash, a time-out, where the graded code came from. */
  public String message() {
    if (message == null && isNotGraded()) {
      return tests.stream().filter(TestReport::notGraded).findFirst().map(TestReport::message).orElse(null)
          + " The kit graded it twice when it could; this is no lost point of the code's.";
    }
    return message;
  }

  /** Puts {@code note} before any message already there. */
  public void addNote(String note) {
    message = message == null ? note : note + " " + message;
  }

  /** The code (or the tests against it) did not compile: every test is lost, with the reason. */
  public void failedToCompile(String reason) {
    tests.forEach(t -> t.record(TestStatus.FAILED, "Not graded: " + reason));
    status = ExerciseStatus.COMPILE_ERROR;
    message = reason;
  }

  /** The kit stopped the grading JVM at the time limit, while {@code running} (or null) ran. */
  public void stoppedAtTimeLimit(long limitSeconds, String running) {
    stoppedAtTimeLimit(limitSeconds, running, null);
  }

  /**
   * As {@link #stoppedAtTimeLimit(long, String)}, with where the test's thread was when the grader stopped it
   * ({@code where}: "still running your code, add() at Adder.java:4 ...", or null when the JVM could not say).
   */
  public void stoppedAtTimeLimit(long limitSeconds, String running, String where) {
    cutShort(running, TestStatus.TIMEOUT, "Did not finish within the exercise's time limit of " + limitSeconds
        + " s, so the grader stopped it" + (where == null
            ? ": an endless loop, or a wait for something that never happens?"
            : ". When it stopped, the test's thread was " + where));
    status = ExerciseStatus.TIMEOUT;
    message = "Stopped after " + limitSeconds + " s" + during(running) + ".";
  }

  /** The grading JVM exited before it finished, while {@code running} (or null) ran. */
  public void crashed(int exitCode, long droppedBytes, Path log, String running) {
    cutShort(running, TestStatus.ERROR, "The test JVM stopped during this test (exit status " + exitCode
        + "). Does the code call System.exit, or run out of memory? Its output is in " + log + ".");
    status = ExerciseStatus.CRASHED;
    message = "The test JVM stopped (exit status " + exitCode + ")" + during(running)
        + (droppedBytes > 0 ? "; " + droppedBytes + " bytes of output were dropped" : "") + ". Output: " + log;
  }

  private static String during(String running) {
    return running == null ? "" : " while running '" + running + "'";
  }

  /** The test that was running (or the first pending one) gets the blame; the rest were never run. */
  private void cutShort(String running, TestStatus status, String why) {
    boolean blamed = false;
    for (TestReport t : tests) {
      if (!t.isPending()) {
        continue;
      }
      if (!blamed && (running == null || running.equals(t.name()))) {
        t.record(status, why);
        blamed = true;
      } else {
        t.record(TestStatus.SKIPPED, "Not run: the exercise was stopped before this test.");
      }
    }
  }

  /** The contract's fields (docs/report-format.md). */
  public JsonObject toJson() {
    JsonArray array = new JsonArray();
    tests.forEach(t -> array.add(t.toJson()));
    return withMessage(new JsonObject().put("id", id).put("title", title).put("points", points()).put("max", max())
        .put("status", status().json()).put("tests", array));
  }

  JsonObject toInternalJson() {
    JsonArray array = new JsonArray();
    tests.forEach(t -> array.add(t.toInternalJson()));
    return toJson().put("tests", array).put("fixedStatus", status == null ? null : status.json());
  }

  private JsonObject withMessage(JsonObject json) {
    String said = message();
    return said == null ? json : json.put("message", said);
  }

  static ExerciseReport fromJson(JsonObject json) {
    List<TestReport> tests = new ArrayList<>();
    JsonArray array = json.getJsonArray("tests", new JsonArray());
    for (int i = 0; i < array.size(); i++) {
      tests.add(TestReport.fromJson(array.getJsonObject(i)));
    }
    ExerciseReport r = new ExerciseReport(json.getString("id"), json.getString("title"), tests);
    String fixed = json.getString("fixedStatus");
    r.status = fixed == null ? null : ExerciseStatus.of(fixed);
    r.message = json.getString("message");
    return r;
  }
}
