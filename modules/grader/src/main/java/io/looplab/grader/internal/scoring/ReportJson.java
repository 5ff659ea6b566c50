package io.looplab.grader.internal.scoring;

import io.looplab.report.ExerciseResult;
import io.looplab.report.ExerciseStatus;
import io.looplab.report.TestResult;
import io.looplab.report.TestStatus;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * The report model's JSON, in its two shapes. The model (looplab-report) depends on the JDK alone; its JSON is
 * mapped here, with the Vert.x JSON the grader and the kit already use, so that what is written (field order,
 * escaping, pretty printing) stays exactly what it was.
 *
 * <ul>
 *   <li>The contract's shape ({@link #contract}): docs/report-format.md and docs/report.schema.json; what the kit
 *       writes for anyone else.</li>
 *   <li>The internal shape ({@link #internal}, read back by {@link #fromInternal}): the contract's fields, and what
 *       the kit needs to rewrite a report later: each test's key and whether it was graded, the exercise's fixed
 *       status.</li>
 * </ul>
 */
public final class ReportJson {

  private ReportJson() {
  }

  /** The contract's fields of an exercise (docs/report-format.md). */
  public static JsonObject contract(ExerciseResult report) {
    return exercise(report, ReportJson::contract);
  }

  /** The contract's fields of a test: name, points, max, status and any message. */
  public static JsonObject contract(TestResult test) {
    JsonObject json = new JsonObject().put("name", test.name()).put("points", test.points()).put("max", test.max())
        .put("status", test.status().json());
    if (test.message() != null) {
      json.put("message", test.message());
    }
    return json;
  }

  /** The contract's fields and the kit's own, as the grading JVM hands them over and the kit saves them. */
  static JsonObject internal(ExerciseResult report) {
    return exercise(report, ReportJson::internal).put("fixedStatus",
        report.fixedStatus() == null ? null : report.fixedStatus().json());
  }

  private static JsonObject internal(TestResult test) {
    return contract(test).put("key", test.key()).put("notGraded", test.notGraded());
  }

  private interface TestShape {
    JsonObject of(TestResult test);
  }

  private static JsonObject exercise(ExerciseResult report, TestShape shape) {
    JsonArray tests = new JsonArray();
    report.tests().forEach(t -> tests.add(shape.of(t)));
    JsonObject json = new JsonObject().put("id", report.id()).put("title", report.title())
        .put("points", report.points()).put("max", report.max()).put("status", report.status().json())
        .put("tests", tests);
    String message = report.message();
    return message == null ? json : json.put("message", message);
  }

  /**
   * What {@link #internal} wrote; a report in the contract's shape reads too (a test then is its own key). The
   * exercise's message is read back as its note: a message the model derived is then said as it was.
   */
  static ExerciseResult fromInternal(JsonObject json) {
    List<TestResult> tests = new ArrayList<>();
    JsonArray array = json.getJsonArray("tests", new JsonArray());
    for (int i = 0; i < array.size(); i++) {
      tests.add(test(array.getJsonObject(i)));
    }
    String fixed = json.getString("fixedStatus");
    return new ExerciseResult(json.getString("id"), json.getString("title"), tests,
        fixed == null ? null : ExerciseStatus.of(fixed), json.getString("message"));
  }

  private static TestResult test(JsonObject json) {
    return new TestResult(json.getString("key", json.getString("name")), json.getString("name"),
        json.getInteger("max", 0), TestStatus.of(json.getString("status", TestStatus.PENDING.json())),
        json.getString("message"), json.getBoolean("notGraded", false));
  }
}
