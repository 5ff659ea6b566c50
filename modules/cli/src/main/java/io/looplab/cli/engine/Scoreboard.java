package io.looplab.cli.engine;

import io.looplab.grader.scoring.ExerciseReport;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;

/** The results of one grading run, and the JSON report of the contract in docs/report-format.md. */
public record Scoreboard(String target, List<ExerciseReport> exercises) {

  public int points() {
    return exercises.stream().mapToInt(ExerciseReport::points).sum();
  }

  public int max() {
    return exercises.stream().mapToInt(ExerciseReport::max).sum();
  }

  public JsonObject toJson() {
    JsonArray list = new JsonArray();
    for (ExerciseReport e : exercises) {
      JsonObject json = e.toJson();
      json.remove("finished");
      json.remove("running");
      json.getJsonArray("tests").forEach(t -> ((JsonObject) t).remove("key"));
      list.add(json);
    }
    return new JsonObject().put("target", target)
        .put("total", new JsonObject().put("points", points()).put("max", max()))
        .put("exercises", list);
  }
}
