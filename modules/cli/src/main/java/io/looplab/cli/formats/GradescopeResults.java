package io.looplab.cli.formats;

import io.looplab.cli.engine.Scoreboard;
import io.looplab.report.ExerciseResult;
import io.looplab.report.TestResult;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * Gradescope's autograder {@code results.json}: the total score, a summary per exercise as the submission's output,
 * and every graded test with its score, maximum and message, numbered exercise.test ("2.3"): the exercise's place in
 * the curriculum and the test's place in its plan, so a test keeps its number whatever --only picked. Every result
 * has the visibility asked for (Gradescope's visible, hidden, after_due_date or after_published).
 */
final class GradescopeResults {

  private GradescopeResults() {
  }

  static String render(Scoreboard board, ExportOptions options) {
    JsonArray tests = new JsonArray();
    StringBuilder output = new StringBuilder();
    for (int i = 0; i < board.exercises().size(); i++) {
      ExerciseResult exercise = board.exercises().get(i);
      output.append(exercise.id()).append(": ").append(exercise.points()).append('/').append(exercise.max())
          .append(" (").append(exercise.status()).append(')')
          .append(exercise.message() == null ? "" : " " + exercise.message()).append('\n');
      for (int j = 0; j < exercise.tests().size(); j++) {
        TestResult test = exercise.tests().get(j);
        JsonObject json = new JsonObject()
            .put("name", exercise.id() + ": " + test.name())
            .put("number", options.place(exercise.id(), i + 1) + "." + (j + 1))
            .put("score", (double) test.points())
            .put("max_score", (double) test.max())
            .put("status", test.passed() ? "passed" : "failed")
            .put("visibility", options.visibility());
        if (test.message() != null) {
          json.put("output", test.message()).put("output_format", "text");
        }
        tests.add(json);
      }
    }
    return new JsonObject()
        .put("score", (double) board.points())
        .put("output", output.toString().strip())
        .put("output_format", "text")
        .put("visibility", options.visibility())
        .put("stdout_visibility", "hidden")
        .put("tests", tests)
        .encodePrettily();
  }
}
