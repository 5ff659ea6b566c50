package io.looplab.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The stuck list and the most frequent failing tests, from stored results and a given now. */
class ClassSignalsTest {
  private static final Instant NOW = Instant.parse("2026-12-07T07:30:00Z");

  private static JsonObject result(String learner, String exercise, String standing, String failing, String at,
      int hints) {
    JsonArray tests = new JsonArray();
    if (failing != null) {
      tests.add(new JsonObject().put("name", failing).put("status", "failed"));
    }
    tests.add(new JsonObject().put("name", "ok").put("status", "passed"));
    return new JsonObject().put("learner", learner).put("exercise", exercise).put("standing", standing)
        .put("firstFailure", failing == null ? null : new JsonObject().put("test", failing).put("message", "m"))
        .put("at", at).put("hintsUsed", hints).put("tests", tests);
  }

  @Test
  @DisplayName("The same failing test for 10 minutes, or three compile errors in a row, is stuck; 9 minutes or a new test is not")
  void stuck() {
    List<JsonObject> results = List.of(
        result("a", "02", "failing", "t1", "2026-12-07T07:15:00Z", 0),
        result("a", "02", "failing", "t1", "2026-12-07T07:29:00Z", 2),
        result("b", "02", "failing", "t1", "2026-12-07T07:21:00Z", 0),
        result("c", "02", "failing", "t1", "2026-12-07T07:00:00Z", 0),
        result("c", "02", "partial", "t2", "2026-12-07T07:25:00Z", 0),
        result("d", "03", "compile-error", null, "2026-12-07T07:27:00Z", 1),
        result("d", "03", "compile-error", null, "2026-12-07T07:28:00Z", 1),
        result("d", "03", "compile-error", null, "2026-12-07T07:29:00Z", 3),
        result("e", "03", "compile-error", null, "2026-12-07T07:28:00Z", 0),
        result("e", "03", "compile-error", null, "2026-12-07T07:29:00Z", 0));
    List<ClassSignals.Stuck> stuck = ClassSignals.stuck(results, NOW, Duration.ofMinutes(10));
    assertEquals(List.of(new ClassSignals.Stuck("a", "02", "t1 failing for 15 min", 2),
        new ClassSignals.Stuck("d", "03", "3 compile errors in a row", 3)), stuck);
  }

  @Test
  @DisplayName("Frequent failures count each learner's latest result once, most frequent first, and skip not-started")
  void frequent() {
    List<JsonObject> results = List.of(
        result("a", "02", "failing", "old", "2026-12-07T07:00:00Z", 0),
        result("a", "02", "failing", "t1", "2026-12-07T07:01:00Z", 0),
        result("b", "02", "partial", "t1", "2026-12-07T07:01:00Z", 0),
        result("c", "02", "failing", "t2", "2026-12-07T07:01:00Z", 0),
        result("d", "02", "not-started", "t3", "2026-12-07T07:01:00Z", 0));
    Map<String, List<Map.Entry<String, Integer>>> top = ClassSignals.frequentFailures(results);
    assertEquals(List.of(Map.entry("t1", 2), Map.entry("t2", 1)), top.get("02"));
    assertTrue(top.get("02").stream().noneMatch(e -> e.getKey().equals("old") || e.getKey().equals("t3")));
  }
}
