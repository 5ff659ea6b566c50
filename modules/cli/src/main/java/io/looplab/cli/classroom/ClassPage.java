package io.looplab.cli.classroom;

import com.github.mustachejava.DefaultMustacheFactory;
import com.github.mustachejava.Mustache;
import io.looplab.cli.engine.Exercise;
import io.looplab.report.ExerciseResult;
import io.looplab.report.ExerciseStatus;
import io.looplab.report.TestResult;

import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * index.html of a class report: a heat map of every graded test against every learner, the failure messages the
 * class meets most often, and each learner's own messages one click away. It is a static page without scripts, so
 * it opens from a file or a shared folder anywhere; the template (class-report.mustache) escapes every value, and
 * learners' code chooses much of what the messages say.
 */
final class ClassPage {

  /** How many of the most frequent failure messages the page lists. */
  static final int FREQUENT = 12;
  /** A message longer than this is cut in the list of frequent ones (a learner's section shows it whole). */
  private static final int SHORT_MESSAGE = 400;

  private static final Mustache TEMPLATE = new DefaultMustacheFactory("io/looplab/cli/classroom")
      .compile("class-report.mustache");

  private ClassPage() {
  }

  static String render(String title, List<Exercise> exercises, List<LearnerResult> results) {
    StringWriter html = new StringWriter();
    TEMPLATE.execute(html, model(title, exercises, results));
    return html.toString();
  }

  static Page model(String title, List<Exercise> exercises, List<LearnerResult> results) {
    List<LearnerResult> graded = results.stream().filter(LearnerResult::isGraded).toList();
    List<Column> columns = new ArrayList<>();
    for (int i = 0; i < results.size(); i++) {
      columns.add(new Column(results.get(i).learner(), anchor(i)));
    }
    List<ExerciseRow> scores = new ArrayList<>();
    List<HeatRow> heat = new ArrayList<>();
    Map<String, Frequent> messages = new LinkedHashMap<>();
    for (Exercise exercise : exercises) {
      List<ExerciseResult> reports = graded.stream().map(r -> r.exercise(exercise.id())).flatMap(Optional::stream)
          .toList();
      int max = reports.isEmpty() ? 0 : reports.get(0).max();
      long full = reports.stream().filter(r -> r.max() > 0 && r.points() == r.max()).count();
      double mean = reports.stream().mapToInt(ExerciseResult::points).average().orElse(0);
      scores.add(new ExerciseRow(exercise.id(), exercise.title(), max, String.format("%.1f", mean), full,
          reports.size()));
      for (String test : testNames(reports)) {
        List<Cell> cells = new ArrayList<>();
        int failedBy = 0;
        for (int i = 0; i < results.size(); i++) {
          Optional<TestResult> t = results.get(i).exercise(exercise.id()).flatMap(r -> named(r, test));
          if (t.isEmpty()) {
            cells.add(new Cell("none", results.get(i).learner() + ": not graded", anchor(i)));
          } else if (t.get().notGraded()) {
            // the grader's failure, not the learner's: no heat, and said as it is
            cells.add(new Cell("none", results.get(i).learner() + ": error, not graded (no point lost)",
                anchor(i)));
          } else if (t.get().passed()) {
            cells.add(new Cell("pass", results.get(i).learner() + ": " + t.get().points() + "/" + t.get().max(),
                anchor(i)));
          } else {
            failedBy++;
            cells.add(new Cell("fail", results.get(i).learner() + ": " + t.get().points() + "/" + t.get().max()
                + " (" + t.get().status().name().toLowerCase() + ")", anchor(i)));
            String message = Optional.ofNullable(t.get().message()).orElse("(no message)");
            messages.computeIfAbsent(exercise.id() + "\u0000" + test + "\u0000" + message,
                k -> new Frequent(exercise.id(), test, shortened(message), new ArrayList<>()))
                .learners().add(results.get(i).learner());
          }
        }
        heat.add(new HeatRow(exercise.id(), test, failedBy, graded.size(), heatLevel(failedBy, graded.size()),
            cells));
      }
    }
    List<Frequent> frequent = messages.values().stream()
        .sorted(Comparator.comparingInt((Frequent f) -> f.learners().size()).reversed()).limit(FREQUENT).toList();
    List<LearnerSection> learners = new ArrayList<>();
    for (int i = 0; i < results.size(); i++) {
      learners.add(section(results.get(i), anchor(i)));
    }
    int max = graded.isEmpty() ? 0 : graded.get(0).board().max();
    double mean = graded.stream().mapToInt(r -> r.board().points()).average().orElse(0);
    List<String> notGraded = results.stream().filter(r -> !r.isGraded()).map(r -> r.learner() + ": " + r.problem())
        .toList();
    return new Page(title, results.size(), graded.size(), exercises.size(), String.format("%.1f", mean), max,
        scores, columns, heat, frequent, !frequent.isEmpty(), learners, notGraded, !notGraded.isEmpty());
  }

  private static List<String> testNames(List<ExerciseResult> reports) {
    return reports.stream().flatMap(r -> r.tests().stream()).map(TestResult::name).distinct().toList();
  }

  private static Optional<TestResult> named(ExerciseResult report, String test) {
    return report.tests().stream().filter(t -> t.name().equals(test)).findFirst();
  }

  /** 0 when nobody failed, else 1 to 5 by the share of graded learners who did: the cell's colour. */
  static int heatLevel(int failedBy, int graded) {
    return failedBy == 0 || graded == 0 ? 0 : (int) Math.ceil(5.0 * failedBy / graded);
  }

  private static LearnerSection section(LearnerResult r, String anchor) {
    if (!r.isGraded()) {
      return new LearnerSection(r.learner(), anchor, "not graded", r.problem(), List.of());
    }
    List<LearnerExercise> exercises = r.board().exercises().stream().map(e -> new LearnerExercise(e.id(),
        e.status() == ExerciseStatus.ERROR ? "error: not graded" : e.points() + "/" + e.max(), e.points() == e.max() && e.max() > 0, e.message(),
        e.tests().stream().filter(t -> !t.passed()).map(t -> new Lost(t.name(), t.points() + "/" + t.max(),
            t.message())).toList())).toList();
    return new LearnerSection(r.learner(), anchor, r.board().points() + "/" + r.board().max(), null, exercises);
  }

  private static String shortened(String message) {
    return message.length() <= SHORT_MESSAGE ? message : message.substring(0, SHORT_MESSAGE) + "…";
  }

  private static String anchor(int index) {
    return "learner-" + (index + 1);
  }

  // The template's view of the class: Mustache reads these records' accessors by name.

  record Page(String title, int learnerCount, int gradedCount, int exerciseCount, String average, int max,
      List<ExerciseRow> scores, List<Column> columns, List<HeatRow> heat, List<Frequent> frequent,
      boolean anyFrequent, List<LearnerSection> learners, List<String> notGraded, boolean anyNotGraded) {

    public String exerciseWord() {
      return exerciseCount == 1 ? "exercise" : "exercises";
    }
  }

  record ExerciseRow(String id, String title, int max, String average, long fullMarks, int graded) {
  }

  record Column(String learner, String anchor) {
  }

  record HeatRow(String exercise, String test, int failedBy, int graded, int level, List<Cell> cells) {
  }

  record Cell(String kind, String title, String anchor) {
  }

  record Frequent(String exercise, String test, String message, List<String> learners) {
    public int count() {
      return learners.size();
    }

    public String learnerWord() {
      return learners.size() == 1 ? "learner" : "learners";
    }

    public String who() {
      return learners.stream().collect(Collectors.joining(", "));
    }
  }

  record LearnerSection(String name, String anchor, String score, String problem, List<LearnerExercise> exercises) {
  }

  record LearnerExercise(String id, String score, boolean full, String message, List<Lost> lost) {
  }

  record Lost(String test, String score, String message) {
  }
}
