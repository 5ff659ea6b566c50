package io.looplab.session;

import io.looplab.report.Standing;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What the live page tells an instructor beyond the grid: who is stuck now, and which tests fail most often on
 * each exercise. Computed from the stored results, oldest first.
 */
final class ClassSignals {
  /** A learner stuck on an exercise, with why and the last hint number they used. */
  record Stuck(String learner, String exercise, String why, int hintsUsed) {}

  private ClassSignals() {}

  /**
   * Stuck: the same first failing test for at least {@code stuckFor} up to {@code now}, or three or more compile
   * errors in a row, in the learner's latest results on that exercise.
   */
  static List<Stuck> stuck(List<JsonObject> results, Instant now, Duration stuckFor) {
    Map<String, List<JsonObject>> streams = new LinkedHashMap<>();
    for (JsonObject r : results) {
      streams.computeIfAbsent(r.getString("learner") + "\n" + r.getString("exercise"), k -> new ArrayList<>()).add(r);
    }
    List<Stuck> stuck = new ArrayList<>();
    for (List<JsonObject> stream : streams.values()) {
      JsonObject last = stream.get(stream.size() - 1);
      int hints = last.getValue("hintsUsed") instanceof Integer h ? h : 0;
      int compileErrors = 0;
      for (int i = stream.size() - 1; i >= 0 && "compile-error".equals(stream.get(i).getString("standing")); i--) {
        compileErrors++;
      }
      if (compileErrors >= 3) {
        stuck.add(new Stuck(last.getString("learner"), last.getString("exercise"),
            compileErrors + " compile errors in a row", hints));
        continue;
      }
      String test = failingTest(last);
      if (test == null) {
        continue;
      }
      Instant since = Instant.parse(last.getString("at"));
      for (int i = stream.size() - 1; i >= 0 && test.equals(failingTest(stream.get(i))); i--) {
        since = parse(stream.get(i).getString("at"), since);
      }
      Duration stuckSoFar = Duration.between(since, now);
      if (stuckSoFar.compareTo(stuckFor) >= 0) {
        stuck.add(new Stuck(last.getString("learner"), last.getString("exercise"),
            test + " failing for " + stuckSoFar.toMinutes() + " min", hints));
      }
    }
    return stuck;
  }

  private static Instant parse(String at, Instant otherwise) {
    try {
      return Instant.parse(at);
    } catch (RuntimeException e) {
      return otherwise;
    }
  }

  private static String failingTest(JsonObject result) {
    return result.getValue("firstFailure") instanceof JsonObject f && f.getValue("test") instanceof String t ? t : null;
  }

  /**
   * Per exercise, its most often failing tests among the learners who attempted it (not-started excluded), counted
   * once per learner on their latest result, most frequent first, at most three.
   */
  static Map<String, List<Map.Entry<String, Integer>>> frequentFailures(List<JsonObject> results) {
    Map<String, Map<String, Integer>> counts = new java.util.TreeMap<>();
    for (Map<String, JsonObject> mine : LivePage.latest(results).values()) {
      for (JsonObject r : mine.values()) {
        if (Standing.of(r.getString("standing")) == Standing.NOT_STARTED) {
          continue;
        }
        Map<String, Integer> forExercise = counts.computeIfAbsent(r.getString("exercise"), e -> new HashMap<>());
        for (Object o : r.getJsonArray("tests")) {
          if (o instanceof JsonObject t && List.of("failed", "error", "timeout").contains(t.getString("status"))) {
            forExercise.merge(String.valueOf(t.getString("name")), 1, Integer::sum);
          }
        }
      }
    }
    Map<String, List<Map.Entry<String, Integer>>> top = new LinkedHashMap<>();
    counts.forEach((exercise, byTest) -> top.put(exercise, byTest.entrySet().stream()
        .sorted(Map.Entry.<String, Integer>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
        .limit(3).collect(Collectors.toList())));
    return top;
  }
}
