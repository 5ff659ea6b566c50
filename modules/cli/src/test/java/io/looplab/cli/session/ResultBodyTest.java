package io.looplab.cli.session;

import io.looplab.report.ExerciseResult;
import io.looplab.report.TestResult;
import io.looplab.report.TestStatus;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A verdict in the protocol's words, for each way a grading ends. */
class ResultBodyTest {

  private static final Instant AT = Instant.parse("2026-12-07T07:00:00Z");

  private static TestResult test(String name, TestStatus status, String message) {
    return new TestResult("[method:" + name + "()]", name, 2, status, message, false);
  }

  @Test
  @DisplayName("code that does not compile: every test failed, as the kit's report says, but no first failing test "
      + "(none ran); standing compile-error")
  void compileError() {
    ExerciseResult r = ExerciseResult.of("02-blocking-calls", "Second", List.of(
        TestResult.pending("[method:a()]", "a", 2), TestResult.pending("[method:b()]", "b", 3)))
        .failedToCompile("Your code does not compile: 1 error");
    JsonObject body = ResultBody.of(r, false, 1, "watch", AT, "id-1");
    assertEquals("compile-error", body.getString("status"));
    assertEquals("compile-error", body.getString("standing"));
    assertEquals(List.of("failed", "failed"), body.getJsonArray("tests").stream()
        .map(t -> ((JsonObject) t).getString("status")).toList());
    assertNull(body.getValue("firstFailure"));
    assertEquals(0, body.getInteger("points"));
    assertEquals(5, body.getInteger("max"));
    assertEquals("2026-12-07T07:00:00Z", body.getString("at"));
    assertEquals(1, body.getInteger("hintsUsed"));
  }

  @Test
  @DisplayName("a test that never ended (the JVM died first) is skipped in the protocol's words")
  void pendingIsSkipped() {
    ExerciseResult r = ExerciseResult.of("02-blocking-calls", "Second", List.of(test("a", TestStatus.FAILED, "x"),
        TestResult.pending("[method:b()]", "b", 3)));
    JsonObject body = ResultBody.of(r, false, 0, "check", AT, "id-3");
    assertEquals("skipped", body.getJsonArray("tests").getJsonObject(1).getString("status"));
    assertEquals("a", body.getJsonObject("firstFailure").getString("test"));
  }

  @Test
  @DisplayName("some tests pass: standing partial, the first failing test in course order with its message, "
      + "points per test")
  void partial() {
    ExerciseResult r = ExerciseResult.of("09-lost-update", "Ninth", List.of(test("a", TestStatus.PASSED, null),
        test("b", TestStatus.TIMEOUT, "too slow"), test("c", TestStatus.FAILED, "wrong")));
    JsonObject body = ResultBody.of(r, false, 0, "check", AT, "id-2");
    assertEquals("partial", body.getString("standing"));
    assertEquals(new JsonObject().put("test", "b").put("message", "too slow"), body.getJsonObject("firstFailure"));
    assertEquals(List.of(2, 0, 0), body.getJsonArray("tests").stream()
        .map(t -> ((JsonObject) t).getInteger("points")).toList());
    assertEquals("timeout", body.getJsonArray("tests").getJsonObject(1).getString("status"));
  }

  @Test
  @DisplayName("the untouched stub is not-started even though its tests fail; the same failures edited are failing")
  void untouchedIsNotStarted() {
    ExerciseResult r = ExerciseResult.of("03-execute-blocking", "Third", List.of(test("a", TestStatus.FAILED, "x")));
    assertEquals("not-started", ResultBody.of(r, true, 0, "check", AT, "i").getString("standing"));
    assertEquals("failing", ResultBody.of(r, false, 0, "check", AT, "i").getString("standing"));
  }

  @Test
  @DisplayName("a long failure message is cut to 2,000 characters, so the body stays far under the server's 64 KiB")
  void longMessageCut() {
    String huge = "m".repeat(1400) + " " + "n".repeat(1400);
    ExerciseResult r = ExerciseResult.of("03-execute-blocking", "Third", List.of(test("a", TestStatus.FAILED, huge)))
        .withNote("note " + "z".repeat(5000));
    JsonObject body = ResultBody.of(r, false, 0, "check", AT, "i");
    assertTrue(body.getJsonObject("firstFailure").getString("message").length() <= ResultBody.MESSAGE_LIMIT);
    assertTrue(body.encode().length() < 64 * 1024);
  }
}
