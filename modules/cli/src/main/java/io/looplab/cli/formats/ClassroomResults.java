package io.looplab.cli.formats;

import io.looplab.cli.engine.Scoreboard;
import io.looplab.report.ExerciseResult;
import io.looplab.report.ExerciseStatus;
import io.looplab.report.TestResult;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;

/**
 * A runner's result for GitHub Classroom's grading reporter (the action
 * {@code classroom-resources/autograding-grading-reporter}): a status, the maximum score, and every graded test with
 * its status, score and message. The reporter adds up the tests' scores against {@code max_score}, prints each
 * test, and sends the total to GitHub Classroom. It reads the result, base64-encoded, from an environment variable.
 */
final class ClassroomResults {

  /**
   * Linux caps one environment variable at 128 KiB, and base64 makes 4 bytes of 3: past about 96 KiB of JSON, the
   * reporter's step would not even start. Messages are cut shorter until the result fits; the job's log, where
   * {@code ./lab grade} prints the report, still has them whole.
   */
  static final int MAX_BYTES = 90_000;
  private static final String CUT = " … [cut to fit GitHub Classroom: the grading step's log has the whole message]";

  private ClassroomResults() {
  }

  static String render(Scoreboard board, ExportOptions options) {
    String json = render(board, Integer.MAX_VALUE);
    for (int cap = 1_000; json.getBytes(StandardCharsets.UTF_8).length > MAX_BYTES && cap >= 50; cap /= 2) {
      json = render(board, cap);
    }
    return json;
  }

  private static String render(Scoreboard board, int messageCap) {
    JsonArray tests = new JsonArray();
    boolean anyRan = false;
    for (ExerciseResult exercise : board.exercises()) {
      anyRan |= exercise.status() != ExerciseStatus.COMPILE_ERROR;
      for (TestResult test : exercise.tests()) {
        String status = LostTest.status(test);
        tests.add(new JsonObject()
            .put("name", exercise.id() + ": " + test.name() + " (" + test.max() + " point" + (test.max() == 1 ? "" : "s")
                + ")")
            .put("status", status)
            .put("score", test.points())
            .put("message", status.equals("pass") ? null : cut(LostTest.message(exercise, test), messageCap)));
      }
    }
    boolean passed = !board.exercises().isEmpty() && board.points() == board.max();
    return new JsonObject()
        .put("version", 1)
        .put("status", passed ? "pass" : anyRan ? "fail" : "error")
        .put("max_score", board.max())
        .put("tests", tests)
        .encode();
  }

  private static String cut(String message, int cap) {
    return message.length() <= cap ? message : message.substring(0, cap) + CUT;
  }
}
