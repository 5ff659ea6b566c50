package io.looplab.grader.internal.scoring;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ExerciseReportTest {

  @TempDir
  Path dir;

  private static ExerciseReport threeTests() {
    return new ExerciseReport("00-sample", "Sample", List.of(new TestReport("[method:a()]", "a", 2),
        new TestReport("[method:b()]", "b", 3), new TestReport("[method:c()]", "c", 5)));
  }

  @Test
  @DisplayName("the contract's JSON has exactly the contract's fields, and none of the kit's own")
  void contractJsonHasOnlyContractFields() {
    ExerciseReport r = threeTests();
    r.tests().get(0).record(TestStatus.PASSED, null);
    r.tests().get(1).record(TestStatus.FAILED, "why");
    JsonObject json = r.toJson();
    assertEquals(Set.of("id", "title", "points", "max", "status", "tests"), json.fieldNames());
    assertEquals(Set.of("name", "points", "max", "status", "message"), json.getJsonArray("tests").getJsonObject(1).fieldNames());
    assertEquals(Set.of("name", "points", "max", "status"), json.getJsonArray("tests").getJsonObject(2).fieldNames());
    assertEquals("pending", json.getJsonArray("tests").getJsonObject(2).getString("status"),
        "an unfinished report is never written as the contract's; this only shows the word");
  }

  @Test
  @DisplayName("a runaway message is cut to about 1,500 characters with a mark that says how much was cut; the kit's own stay whole")
  void runawayMessageIsCapped() {
    ExerciseReport r = threeTests();
    String kitSized = "w".repeat(TestReport.MAX_MESSAGE);
    r.tests().get(0).record(TestStatus.FAILED, kitSized);
    r.tests().get(1).record(TestStatus.FAILED, "Expected a seat, got: " + "x".repeat(5_000_000));
    r.tests().get(2).record(TestStatus.FAILED, "y".repeat(TestReport.MAX_MESSAGE - 1) + "\uD83D\uDE00 and on");

    assertEquals(kitSized, r.tests().get(0).message(), "a message of the limit's length is kept whole");
    String cut = r.tests().get(1).message();
    assertTrue(cut.startsWith("Expected a seat, got: xxx"), "the beginning is kept");
    assertTrue(cut.endsWith(" … [truncated: " + (5_000_022 - TestReport.MAX_MESSAGE) + " more characters]"), cut.substring(
        TestReport.MAX_MESSAGE));
    assertTrue(cut.length() < TestReport.MAX_MESSAGE + 60, "cut to " + cut.length() + " characters");
    String emoji = r.tests().get(2).message();
    assertFalse(Character.isHighSurrogate(emoji.charAt(emoji.indexOf(" … [truncated") - 1)), "a character cut in two");
    String reread = TestReport.fromJson(r.tests().get(1).toInternalJson().put("message", "z".repeat(100_000)))
        .message();
    assertTrue(reread.length() < TestReport.MAX_MESSAGE + 60 && reread.contains("[truncated: "),
        "a report read back is capped too: the kit never shows more than the limit");
    assertEquals(cut, TestReport.fromJson(r.tests().get(1).toInternalJson()).message(),
        "a message cut in the grading JVM is read back as it was, its count of what was cut intact");
  }

  @Test
  @DisplayName("a time limit blames the running test, skips the rest and keeps earlier points")
  void timeLimitBlamesTheRunningTest() {
    ExerciseReport r = threeTests();
    r.tests().get(0).record(TestStatus.PASSED, null);
    r.stoppedAtTimeLimit(90, "b");
    assertEquals(List.of(TestStatus.PASSED, TestStatus.TIMEOUT, TestStatus.SKIPPED),
        r.tests().stream().map(TestReport::status).toList());
    assertEquals(ExerciseStatus.TIMEOUT, r.status());
    assertEquals(2, r.points());
    assertEquals(10, r.max());
    assertTrue(r.message().contains("90 s") && r.message().contains("'b'"), r.message());
    assertTrue(r.tests().get(1).message().contains("an endless loop, or a wait"), r.tests().get(1).message());
  }

  @Test
  @DisplayName("a time limit says where the test's thread was, when the grading JVM could tell")
  void timeLimitSaysWhereTheTestWas() {
    ExerciseReport r = threeTests();
    r.stoppedAtTimeLimit(90, "a", "still running your code, add() at Adder.java:3");
    assertEquals("Did not finish within the exercise's time limit of 90 s, so the grader stopped it. When it "
        + "stopped, the test's thread was still running your code, add() at Adder.java:3", r.tests().get(0).message());
  }

  @Test
  @DisplayName("a compile error loses every test with the reason, and max stays")
  void compileErrorLosesEveryTest() {
    ExerciseReport r = threeTests();
    r.failedToCompile("Your code does not compile: X.java:3: ';' expected");
    assertEquals(ExerciseStatus.COMPILE_ERROR, r.status());
    assertEquals(0, r.points());
    assertEquals(10, r.max());
    assertTrue(r.tests().stream().allMatch(t -> t.message().startsWith("Not graded: Your code does not compile")));
    assertFalse(r.isComplete());
  }

  @Test
  @DisplayName("the in-flight file round-trips the report, the running test, and a status set by a rewrite")
  void inFlightRoundTrip() {
    ExerciseReport r = threeTests();
    r.crashed(3, 0, dir.resolve("output.log"), "a");
    new InFlightReport(r, "a", false).write(dir.resolve("report.json"));
    InFlightReport back = InFlightReport.read(dir.resolve("report.json")).orElseThrow();
    assertEquals("a", back.running());
    assertFalse(back.finished());
    assertEquals(ExerciseStatus.CRASHED, back.report().status());
    assertEquals(r.toJson(), back.report().toJson());
    assertTrue(back.report().tests().get(0).isMethod("a"));
  }
}
