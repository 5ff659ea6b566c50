package io.looplab.session;

import io.looplab.report.Standing;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The instructor's grid, rendered on the server from the stored results: exercise by learner, each cell the
 * learner's latest standing on that exercise, as a colour and a symbol (colour is never the only signal; the symbols
 * are the class report's, {@link Standing#symbol()}). With names hidden it is the projector's view, learners as
 * numbers. With scripts off the page reloads itself every {@value #RELOAD_SECONDS} s; with them, each stored result
 * changes its cell as it arrives.
 */
final class LivePage {
  /** How often a page without scripts reloads: the grid is never more than this old. */
  static final int RELOAD_SECONDS = 15;
  private static final String STYLE = "body{font-family:sans-serif}table{border-collapse:collapse}"
      + "td,th{border:1px solid #999;padding:2px 6px;text-align:center}"
      + ".full-marks{background:#8d8}.partial{background:#fd6}.failing{background:#f99}"
      + ".compile-error{background:#c7f}.crashed{background:#f6c}.timed-out{background:#fa6}"
      + ".grader-error{background:#ccc}.not-started{background:#fff}";

  /** The latest result of each learner on each exercise, in the order stored. */
  static Map<String, Map<String, JsonObject>> latest(List<JsonObject> results) {
    Map<String, Map<String, JsonObject>> byLearner = new LinkedHashMap<>();
    for (JsonObject result : results) {
      byLearner.computeIfAbsent(result.getString("learner"), l -> new LinkedHashMap<>())
          .put(result.getString("exercise"), result);
    }
    return byLearner;
  }

  static String render(String session, List<SessionStore.Learner> learners, List<JsonObject> results,
      boolean names, String eventsUrl, String projectorUrl, java.time.Instant now) {
    Map<String, Map<String, JsonObject>> latest = latest(results);
    TreeSet<String> exercises = new TreeSet<>();
    results.forEach(r -> exercises.add(r.getString("exercise")));
    StringBuilder html = new StringBuilder("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>")
        .append(escape(session)).append("</title><noscript><meta http-equiv=\"refresh\" content=\"")
        .append(RELOAD_SECONDS).append("\"></noscript><style>").append(STYLE).append("</style></head><body><h1>")
        .append(escape(session)).append("</h1>");
    if (projectorUrl != null) {
      html.append("<p><a href=\"").append(escape(projectorUrl)).append("\">The projector's view</a> (no names; its "
          + "link opens nothing else)</p>");
    }
    html.append("<table><tr><th>Learner</th>");
    exercises.forEach(e -> html.append("<th>").append(escape(e)).append("</th>"));
    html.append("</tr>");
    int number = 0;
    for (SessionStore.Learner learner : learners) {
      number++;
      html.append("<tr><th>").append(names ? escape(learner.name()) : "#" + number).append("</th>");
      Map<String, JsonObject> mine = latest.getOrDefault(learner.id(), Map.of());
      for (String exercise : exercises) {
        JsonObject result = mine.get(exercise);
        Standing standing = result == null ? Standing.NOT_STARTED : Standing.of(result.getString("standing"));
        html.append("<td id=\"").append(cellId(learner.id(), exercise)).append("\" class=\"")
            .append(standing.word()).append("\" title=\"").append(standing.inWords()).append("\">")
            .append(standing.symbol()).append("</td>");
      }
      html.append("</tr>");
    }
    html.append("</table><p id=\"legend\">");
    for (Standing standing : Standing.values()) {
      html.append("<span class=\"").append(standing.word()).append("\">").append(standing.symbol()).append("</span> ")
          .append(standing.inWords()).append(" &nbsp; ");
    }
    html.append("</p><p>New results appear here as they arrive (without scripts, the page reloads every ")
        .append(RELOAD_SECONDS).append(" s).</p>");
    if (names) {
      Map<String, String> nameOf = new java.util.HashMap<>();
      learners.forEach(l -> nameOf.put(l.id(), l.name()));
      html.append("<h2>Stuck now</h2><ul id=\"stuck\">");
      for (ClassSignals.Stuck s : ClassSignals.stuck(results, now, java.time.Duration.ofMinutes(10))) {
        html.append("<li>").append(escape(nameOf.getOrDefault(s.learner(), "?"))).append(" on ")
            .append(escape(s.exercise())).append(": ").append(escape(s.why())).append(" (hint ")
            .append(s.hintsUsed()).append(")</li>");
      }
      html.append("</ul><h2>Most frequent failing tests</h2><ul id=\"frequent\">");
      ClassSignals.frequentFailures(results).forEach((exercise, top) -> {
        if (!top.isEmpty()) {
          html.append("<li>").append(escape(exercise)).append(": ").append(top.stream()
              .map(e -> escape(e.getKey()) + " (" + e.getValue() + ")").collect(java.util.stream.Collectors.joining(", ")))
              .append("</li>");
        }
      });
      html.append("</ul>");
    }
    if (eventsUrl != null) {
      // data-live on the body says the stream is open: a reader (or a test) knows updates will arrive.
      html.append("<script>var es=new EventSource('").append(eventsUrl).append("');")
          .append("es.onopen=function(){document.body.setAttribute('data-live','yes');};es.onmessage=function(m){")
          .append("var r=JSON.parse(m.data),c=document.getElementById(r.cell);if(!c){location.reload();return;}")
          .append("c.className=r.standing;c.textContent=r.symbol;c.title=r.inWords;};</script>");
    }
    return html.append("</body></html>").toString();
  }

  static String cellId(String learner, String exercise) {
    return "c-" + learner + "-" + exercise.replaceAll("[^A-Za-z0-9-]", "_");
  }

  /** One CSV line per learner and exercise: their latest result. */
  static String csv(List<SessionStore.Learner> learners, List<JsonObject> results) {
    Map<String, Map<String, JsonObject>> latest = latest(results);
    List<String> lines = new ArrayList<>();
    lines.add("learner,exercise,standing,points,max,at");
    for (SessionStore.Learner learner : learners) {
      for (JsonObject r : latest.getOrDefault(learner.id(), Map.of()).values()) {
        lines.add(String.join(",", csvField(learner.name()), csvField(r.getString("exercise")),
            r.getString("standing"), String.valueOf(r.getInteger("points")), String.valueOf(r.getInteger("max")),
            csvField(r.getString("at"))));
      }
    }
    return String.join("\n", lines) + "\n";
  }

  private static String csvField(String s) {
    return s.matches("[^,\"\n\r]*") ? s : "\"" + s.replace("\"", "\"\"") + "\"";
  }

  static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;")
        .replace("'", "&#39;");
  }
}
