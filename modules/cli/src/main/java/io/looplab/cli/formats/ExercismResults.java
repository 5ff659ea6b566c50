package io.looplab.cli.formats;

import io.looplab.cli.engine.Scoreboard;
import io.looplab.report.ExerciseResult;
import io.looplab.report.ExerciseStatus;
import io.looplab.report.TestResult;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * Exercism's test-runner {@code results.json}, version 3: every graded test, in order, with each exercise as a task
 * ({@code task_id} 1, 2, ...). The overall status is {@code error} only when no test could run at all.
 */
final class ExercismResults {

  /** The interface caps every message at 65535 characters. */
  private static final int MAX_MESSAGE = 65_535;

  private ExercismResults() {
  }

  static String render(Scoreboard board, ExportOptions options) {
    JsonArray tests = new JsonArray();
    List<String> notRun = new ArrayList<>();
    boolean allPassed = true;
    boolean anyRan = false;
    for (int i = 0; i < board.exercises().size(); i++) {
      ExerciseResult exercise = board.exercises().get(i);
      allPassed &= exercise.status() == ExerciseStatus.PASSED;
      if (exercise.status() == ExerciseStatus.COMPILE_ERROR) {
        notRun.add(exercise.id() + ": " + exercise.message());
      } else {
        anyRan = true;
      }
      for (TestResult test : exercise.tests()) {
        tests.add(test(exercise, test, i + 1, options.tests()));
      }
    }
    String status = allPassed && !board.exercises().isEmpty() ? "pass" : anyRan ? "fail" : "error";
    JsonObject results = new JsonObject().put("version", 3).put("status", status);
    if (status.equals("error")) {
      results.put("message", cap(notRun.isEmpty() ? "No exercise was graded." : String.join("\n", notRun)));
    }
    return results.put("tests", tests).encodePrettily();
  }

  private static JsonObject test(ExerciseResult exercise, TestResult test, int task, TestSource source) {
    TestName name = TestName.of(test);
    String status = LostTest.status(test);
    // the specification's test_code is the test's own code, shown to the learner beside its result; a test whose
    // method cannot be found (a dynamic test, a kit without its test files) is named instead
    String code = source.of(exercise.id(), test).orElseGet(() -> "// " + name.simpleClassName() + "."
        + name.method() + "() in exercises/" + exercise.id() + "/src/test/java, worth " + test.max() + " point"
        + (test.max() == 1 ? "" : "s"));
    JsonObject json = new JsonObject()
        .put("name", exercise.id() + ": " + test.name())
        .put("test_code", code)
        .put("status", status)
        .put("task_id", task);
    if (!status.equals("pass")) {
      json.put("message", cap(LostTest.message(exercise, test)));
    }
    return json;
  }

  private static String cap(String text) {
    return text.length() <= MAX_MESSAGE ? text : text.substring(0, MAX_MESSAGE - 1) + "…";
  }
}
