package io.looplab.cli.classroom;

import io.looplab.cli.engine.Scoreboard;
import io.looplab.report.ExerciseResult;
import io.looplab.report.ExerciseStatus;
import io.looplab.report.TestResult;
import io.looplab.report.TestStatus;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * learners/NAME.json of a class report: the learner's report in the format of `./lab grade --json`
 * (docs/report-format.md), its target the learner's name, plus {@code notStarted}, the exercises whose code was the
 * untouched stub. It is also what a later `--class ... --learner OTHER` reads this learner's row back from, so it
 * holds everything the class page shows.
 */
final class LearnerFile {

  private LearnerFile() {
  }

  static JsonObject toJson(LearnerResult r) {
    // in curriculum order (ids begin with their number): the set's own order changes from one JVM to the next
    return r.board().toJson().put("notStarted", new JsonArray(r.untouched().stream().sorted().toList()))
        .put("millis", r.millis());
  }

  /**
   * The learner's row as {@code file} keeps it, or empty when it is missing or is not such a report (a file edited
   * by hand, say: the caller grades that learner again or says so).
   */
  static Optional<LearnerResult> read(String learner, Path file) {
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    try {
      JsonObject json = new JsonObject(Files.readString(file));
      List<ExerciseResult> exercises = new ArrayList<>();
      JsonArray list = json.getJsonArray("exercises");
      for (int i = 0; i < list.size(); i++) {
        exercises.add(exercise(list.getJsonObject(i)));
      }
      Set<String> untouched = new HashSet<>();
      json.getJsonArray("notStarted", new JsonArray()).forEach(id -> untouched.add((String) id));
      return Optional.of(LearnerResult.graded(learner, new Scoreboard(learner, exercises),
          json.getLong("millis", 0L), untouched));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (DecodeException | ClassCastException | NullPointerException | IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /**
   * An exercise from the contract's fields. The contract keeps no test keys (a test is then its own key) and no
   * "fixed" status, so a status the tests cannot give (compile error, time-out, crash) is fixed again from the file;
   * "error" comes back from the tests that were not graded (their message starts "Not graded:").
   */
  private static ExerciseResult exercise(JsonObject json) {
    List<TestResult> tests = new ArrayList<>();
    JsonArray list = json.getJsonArray("tests");
    for (int i = 0; i < list.size(); i++) {
      JsonObject t = list.getJsonObject(i);
      TestStatus status = TestStatus.of(t.getString("status"));
      String message = t.getString("message");
      boolean notGraded = status == TestStatus.ERROR && message != null && message.startsWith("Not graded:");
      tests.add(new TestResult(t.getString("name"), t.getString("name"), t.getInteger("max"), status, message,
          notGraded));
    }
    ExerciseStatus status = ExerciseStatus.of(json.getString("status"));
    boolean derived = status == ExerciseStatus.PASSED || status == ExerciseStatus.FAILED
        || status == ExerciseStatus.ERROR;
    return new ExerciseResult(json.getString("id"), json.getString("title"), tests, derived ? null : status,
        json.getString("message"));
  }
}
