package io.looplab.cli.engine;

import io.looplab.grader.internal.scoring.ReportJson;
import io.looplab.report.ExerciseResult;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;

/** The results of one grading run, and the JSON report of the contract in docs/report-format.md. */
public record Scoreboard(String target, List<ExerciseResult> exercises) {

  /** The report format's version (docs/report-format.md): raised when a field changes meaning, never for additions. */
  public static final int FORMAT_VERSION = 1;

  public int points() {
    return exercises.stream().mapToInt(ExerciseResult::points).sum();
  }

  public int max() {
    return exercises.stream().mapToInt(ExerciseResult::max).sum();
  }

  public JsonObject toJson() {
    JsonArray list = new JsonArray();
    exercises.forEach(e -> list.add(ReportJson.contract(e)));
    return new JsonObject().put("version", FORMAT_VERSION).put("target", target)
        .put("total", new JsonObject().put("points", points()).put("max", max()))
        .put("exercises", list);
  }
}
