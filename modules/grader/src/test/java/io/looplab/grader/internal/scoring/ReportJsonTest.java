package io.looplab.grader.internal.scoring;

import io.looplab.report.ExerciseResult;
import io.looplab.report.MessageLimit;
import io.looplab.report.TestResult;
import io.looplab.report.TestStatus;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReportJsonTest {

  @TempDir
  Path dir;

  private static ExerciseResult threeTests() {
    return ExerciseResult.of("00-sample", "Sample", List.of(
        TestResult.pending("[method:a()]", "a", 2).recorded(TestStatus.PASSED, null),
        TestResult.pending("[method:b()]", "b", 3).recorded(TestStatus.FAILED, "why"),
        TestResult.pending("[method:c()]", "c", 5)));
  }

  @Test
  @DisplayName("the contract's JSON has exactly the contract's fields, in the contract's order, and none of the kit's own")
  void contractJsonHasOnlyContractFields() {
    JsonObject json = ReportJson.contract(threeTests().withNote("a note"));
    assertEquals(List.of("id", "title", "points", "max", "status", "tests", "message"), List.copyOf(json.fieldNames()));
    assertEquals(List.of("name", "points", "max", "status", "message"),
        List.copyOf(json.getJsonArray("tests").getJsonObject(1).fieldNames()));
    assertEquals(List.of("name", "points", "max", "status"),
        List.copyOf(json.getJsonArray("tests").getJsonObject(2).fieldNames()));
    assertEquals("pending", json.getJsonArray("tests").getJsonObject(2).getString("status"),
        "an unfinished report is never written as the contract's; this only shows the word");
    assertEquals(2, json.getInteger("points"));
    assertEquals(10, json.getInteger("max"));
    assertEquals("failed", json.getString("status"));
  }

  @Test
  @DisplayName("the internal shape round-trips every field: keys, not graded, a fixed status, the note")
  void internalRoundTrip() {
    ExerciseResult crashed = threeTests().crashed(3, 0, dir.resolve("output.log"), "c").withNote("a note");
    assertEquals(crashed, ReportJson.fromInternal(ReportJson.internal(crashed)));
    ExerciseResult notGraded = threeTests().notGradedBecause("no verdict");
    ExerciseResult back = ReportJson.fromInternal(ReportJson.internal(notGraded));
    assertEquals(ReportJson.contract(notGraded), ReportJson.contract(back), "the derived message is said as it was");
    assertEquals(notGraded.tests(), back.tests());
    assertEquals(List.of("name", "points", "max", "status", "message", "key", "notGraded"),
        List.copyOf(ReportJson.internal(notGraded).getJsonArray("tests").getJsonObject(1).fieldNames()));
  }

  @Test
  @DisplayName("a report in the contract's shape reads too: each test is its own key")
  void contractShapeReads() {
    ExerciseResult back = ReportJson.fromInternal(ReportJson.contract(threeTests()));
    assertEquals(ReportJson.contract(threeTests()), ReportJson.contract(back));
    assertEquals("b", back.tests().get(1).key());
  }

  @Test
  @DisplayName("a report read back is capped too, and a message cut in the grading JVM is read back as it was")
  void readBackIsCapped() {
    JsonObject json = ReportJson.internal(threeTests());
    json.getJsonArray("tests").getJsonObject(1).put("message", "z".repeat(100_000));
    String reread = ReportJson.fromInternal(json).tests().get(1).message();
    assertEquals(MessageLimit.capped("z".repeat(100_000)), reread, "the kit never shows more than the limit");
    json.getJsonArray("tests").getJsonObject(1).put("message", reread);
    assertEquals(reread, ReportJson.fromInternal(json).tests().get(1).message(), "its count of what was cut intact");
  }

  @Test
  @DisplayName("the in-flight file round-trips the report, the running test, and a status set by a rewrite")
  void inFlightRoundTrip() {
    ExerciseResult r = threeTests().crashed(3, 0, dir.resolve("output.log"), "c");
    new InFlightReport(r, "c", false).write(dir.resolve("report.json"));
    InFlightReport back = InFlightReport.read(dir.resolve("report.json")).orElseThrow();
    assertEquals("c", back.running());
    assertFalse(back.finished());
    assertEquals(r, back.report());
    assertTrue(back.report().tests().get(0).isMethod("a"));
  }
}
