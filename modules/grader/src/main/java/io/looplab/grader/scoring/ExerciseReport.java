package io.looplab.grader.scoring;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * The result of grading one exercise, in the shape of the report contract (docs/report-format.md). While the tests run,
 * the listener rewrites it after every test, so that a grader that has to stop a hung or crashed JVM still knows
 * which test was running and what the others scored.
 */
public final class ExerciseReport {

  private final String id;
  private final String title;
  private final List<TestReport> tests;
  private String status;
  private String running;
  private boolean finished;
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

  /** passed, failed, compile-error, timeout or crashed; derived from the tests unless set. */
  public String status() {
    if (status != null) {
      return status;
    }
    return !tests.isEmpty() && points() == max() && tests.stream().allMatch(t -> "passed".equals(t.status()))
        ? "passed" : "failed";
  }

  public void status(String status) {
    this.status = status;
  }

  /** The test running right now, or null. */
  public String running() {
    return running;
  }

  public void running(String testName) {
    this.running = testName;
  }

  public boolean finished() {
    return finished;
  }

  public void finished(boolean finished) {
    this.finished = finished;
  }

  /** A message for the whole exercise: a compile error, a crash, a time-out. */
  public String message() {
    return message;
  }

  public void message(String message) {
    this.message = message;
  }

  public JsonObject toJson() {
    JsonArray array = new JsonArray();
    tests.forEach(t -> array.add(t.toJson()));
    JsonObject json = new JsonObject().put("id", id).put("title", title).put("points", points()).put("max", max())
        .put("status", status()).put("tests", array).put("finished", finished);
    if (running != null) {
      json.put("running", running);
    }
    if (message != null) {
      json.put("message", message);
    }
    return json;
  }

  public static ExerciseReport fromJson(JsonObject json) {
    List<TestReport> tests = new ArrayList<>();
    JsonArray array = json.getJsonArray("tests", new JsonArray());
    for (int i = 0; i < array.size(); i++) {
      tests.add(TestReport.fromJson(array.getJsonObject(i)));
    }
    ExerciseReport r = new ExerciseReport(json.getString("id"), json.getString("title"), tests);
    r.running = json.getString("running");
    r.finished = json.getBoolean("finished", false);
    r.message = json.getString("message");
    return r;
  }
}
