package io.looplab.cli.classroom;

import com.github.mustachejava.DefaultMustacheFactory;
import com.github.mustachejava.Mustache;
import io.looplab.cli.engine.Exercise;
import io.looplab.report.ExerciseResult;
import io.looplab.report.ExerciseStatus;
import io.looplab.report.Standing;
import io.looplab.report.TestResult;
import io.looplab.report.TestStatus;

import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * index.html of a class report. First the glance: an exercise x learner grid, each cell coloured by where the learner
 * stands ({@link Standing}) and carrying a symbol too, with a count per exercise of each standing; then the failing
 * tests the class meets most often among the learners who attempted each exercise; then the details: a heat map of
 * every graded test against every learner, and each learner's own messages one click away. It is a static page
 * without scripts, so it opens from a file or a shared folder anywhere; the template (class-report.mustache) escapes
 * every value, and learners' code chooses much of what the messages say. The same model, with the names left out,
 * is the projector's page (class-projector.mustache).
 */
final class ClassPage {

  /** How many of the most frequent failing tests the page lists. */
  static final int FREQUENT = 12;
  /** A message longer than this is cut in the list of frequent ones (a learner's section shows it whole). */
  private static final int SHORT_MESSAGE = 400;

  private static final DefaultMustacheFactory TEMPLATES = new DefaultMustacheFactory("io/looplab/cli/classroom");
  private static final Mustache TEMPLATE = TEMPLATES.compile("class-report.mustache");
  private static final Mustache PROJECTOR = TEMPLATES.compile("class-projector.mustache");

  private ClassPage() {
  }

  static String render(String title, List<Exercise> exercises, List<LearnerResult> results) {
    return render(title, exercises, results, results.size());
  }

  /** The page of {@code results}, the learners graded so far of a class of {@code classSize}. */
  static String render(String title, List<Exercise> exercises, List<LearnerResult> results, int classSize) {
    StringWriter html = new StringWriter();
    TEMPLATE.execute(html, model(title, exercises, results, classSize));
    return html.toString();
  }

  /** The projector's page: the grid, the counts and the frequent failing tests, learners as numbers, no names. */
  static String renderProjector(String title, List<Exercise> exercises, List<LearnerResult> results, int classSize) {
    StringWriter html = new StringWriter();
    PROJECTOR.execute(html, model(title, exercises, results, classSize));
    return html.toString();
  }

  static Page model(String title, List<Exercise> exercises, List<LearnerResult> results) {
    return model(title, exercises, results, results.size());
  }

  static Page model(String title, List<Exercise> exercises, List<LearnerResult> results, int classSize) {
    List<LearnerResult> graded = results.stream().filter(LearnerResult::isGraded).toList();
    List<Column> columns = new ArrayList<>();
    for (int i = 0; i < results.size(); i++) {
      columns.add(new Column(results.get(i).learner(), anchor(i), i + 1));
    }
    List<ExerciseRow> scores = new ArrayList<>();
    List<GridRow> grid = new ArrayList<>();
    List<HeatRow> heat = new ArrayList<>();
    List<NotStarted> notStarted = new ArrayList<>();
    List<Frequent> failing = new ArrayList<>();
    for (Exercise exercise : exercises) {
      List<ExerciseResult> reports = graded.stream().map(r -> r.exercise(exercise.id())).flatMap(Optional::stream)
          .toList();
      int max = reports.isEmpty() ? 0 : reports.get(0).max();
      List<ExerciseResult> attempted = graded.stream().filter(r -> r.attempted(exercise.id()))
          .map(r -> r.exercise(exercise.id()).orElseThrow()).toList();
      double mean = attempted.stream().mapToInt(ExerciseResult::points).average().orElse(0);
      Map<Standing, Integer> counts = new EnumMap<>(Standing.class);
      List<GridCell> cells = new ArrayList<>();
      List<String> notStartedBy = new ArrayList<>();
      for (int i = 0; i < results.size(); i++) {
        LearnerResult r = results.get(i);
        Standing standing = r.standing(exercise.id());
        counts.merge(standing, 1, Integer::sum);
        String score = r.exercise(exercise.id()).map(x -> x.points() + "/" + x.max()).orElse("");
        cells.add(new GridCell(standing.word(), standing.symbol(), standing.inWords(),
            standing == Standing.NOT_STARTED || standing == Standing.GRADER_ERROR ? "" : score,
            r.learner() + ": " + standing.inWords() + (score.isEmpty() ? "" : ", " + score), anchor(i), i + 1));
        if (standing == Standing.NOT_STARTED) {
          notStartedBy.add(r.learner());
        }
      }
      grid.add(new GridRow(exercise.id(), exercise.title(), cells));
      scores.add(new ExerciseRow(exercise.id(), exercise.title(), max, String.format("%.1f", mean),
          counts.getOrDefault(Standing.FULL_MARKS, 0), counts.getOrDefault(Standing.PARTIAL, 0),
          counts.getOrDefault(Standing.FAILING, 0), counts.getOrDefault(Standing.NOT_STARTED, 0),
          errors(counts), errorWords(counts), results.size()));
      if (!notStartedBy.isEmpty()) {
        notStarted.add(new NotStarted(exercise.id(), notStartedBy.size(), String.join(", ", notStartedBy)));
      }
      for (String test : testNames(reports)) {
        heat.add(heatRow(exercise, test, results, graded.size()));
        frequentFailure(exercise, test, results).ifPresent(failing::add);
      }
    }
    // most learners first; between equals, the curriculum's order (the list was built in it, and the sort is stable)
    List<Frequent> frequent = failing.stream()
        .sorted(Comparator.comparingInt((Frequent f) -> f.learners().size()).reversed()).limit(FREQUENT).toList();
    List<LearnerSection> learners = new ArrayList<>();
    for (int i = 0; i < results.size(); i++) {
      learners.add(section(results.get(i), anchor(i)));
    }
    int max = graded.isEmpty() ? 0 : graded.get(0).board().max();
    double mean = graded.stream().mapToInt(r -> r.board().points()).average().orElse(0);
    List<String> notGraded = results.stream().filter(r -> !r.isGraded()).map(r -> r.learner() + ": " + r.problem())
        .toList();
    return new Page(title, results.size(), classSize, graded.size(), exercises.size(), String.format("%.1f", mean),
        max, scores, columns, grid, legend(), notStarted, !notStarted.isEmpty(), heat, frequent, !frequent.isEmpty(),
        learners, notGraded, !notGraded.isEmpty());
  }

  private static List<Legend> legend() {
    return Arrays.stream(Standing.values()).map(s -> new Legend(s.word(), s.symbol(), s.inWords())).toList();
  }

  /** The standings the summary counts as errors: the code did not compile, crashed or ran out of time, or the grader failed. */
  private static final List<Standing> ERRORS = List.of(Standing.COMPILE_ERROR, Standing.CRASHED, Standing.TIMED_OUT,
      Standing.GRADER_ERROR);

  private static int errors(Map<Standing, Integer> counts) {
    return ERRORS.stream().mapToInt(s -> counts.getOrDefault(s, 0)).sum();
  }

  private static String errorWords(Map<Standing, Integer> counts) {
    return ERRORS.stream().filter(counts::containsKey).map(s -> counts.get(s) + " " + s.inWords())
        .collect(Collectors.joining(", "));
  }

  private static HeatRow heatRow(Exercise exercise, String test, List<LearnerResult> results, int gradedCount) {
    List<Cell> cells = new ArrayList<>();
    int failedBy = 0;
    for (int i = 0; i < results.size(); i++) {
      LearnerResult r = results.get(i);
      Optional<TestResult> t = r.exercise(exercise.id()).flatMap(x -> named(x, test));
      String untouched = r.attempted(exercise.id()) || t.isEmpty() ? "" : " (not started: the stub as handed out)";
      if (t.isEmpty()) {
        cells.add(new Cell("none", r.learner() + ": not graded", anchor(i)));
      } else if (t.get().notGraded()) {
        // the grader's failure, not the learner's: no heat, and said as it is
        cells.add(new Cell("none", r.learner() + ": error, not graded (no point lost)", anchor(i)));
      } else if (t.get().passed()) {
        cells.add(new Cell("pass", r.learner() + ": " + t.get().points() + "/" + t.get().max() + untouched,
            anchor(i)));
      } else {
        failedBy++;
        cells.add(new Cell(untouched.isEmpty() ? "fail" : "fail stub", r.learner() + ": " + t.get().points() + "/"
            + t.get().max() + " (" + t.get().status().name().toLowerCase() + ")" + untouched, anchor(i)));
      }
    }
    return new HeatRow(exercise.id(), test, failedBy, gradedCount, heatLevel(failedBy, gradedCount), cells);
  }

  /**
   * {@code test} as a frequent failure: the learners who attempted the exercise and failed the test, with the message
   * most of them got. An untouched stub is left out (its failures are the stub's, not a mistake), and so are the
   * exercises where no test could judge the code (a compile error fails every test with the compiler's words; the
   * summary counts those) and tests the grader could not judge or did not run.
   */
  private static Optional<Frequent> frequentFailure(Exercise exercise, String test, List<LearnerResult> results) {
    List<String> learners = new ArrayList<>();
    Map<String, Integer> messages = new LinkedHashMap<>();
    for (LearnerResult r : results) {
      Standing standing = r.standing(exercise.id());
      if (!r.attempted(exercise.id()) || standing == Standing.COMPILE_ERROR || standing == Standing.GRADER_ERROR) {
        continue;
      }
      Optional<TestResult> t = r.exercise(exercise.id()).flatMap(x -> named(x, test));
      if (t.isPresent() && !t.get().passed() && !t.get().notGraded() && t.get().status() != TestStatus.SKIPPED) {
        learners.add(r.learner());
        messages.merge(Optional.ofNullable(t.get().message()).orElse("(no message)"), 1, Integer::sum);
      }
    }
    if (learners.isEmpty()) {
      return Optional.empty();
    }
    String message = messages.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
    return Optional.of(new Frequent(exercise.id(), test, shortened(message), messages.size(), learners));
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
    List<LearnerExercise> exercises = r.board().exercises().stream().map(e -> {
      Standing standing = r.standing(e.id());
      return new LearnerExercise(e.id(), standing.word(), standing.inWords(),
          e.status() == ExerciseStatus.ERROR ? "error: not graded" : e.points() + "/" + e.max(), e.isComplete(),
          e.message(), standing == Standing.NOT_STARTED ? List.of() : e.tests().stream().filter(t -> !t.passed())
              .map(t -> new Lost(t.name(), t.points() + "/" + t.max(), t.message())).toList());
    }).toList();
    return new LearnerSection(r.learner(), anchor, r.board().points() + "/" + r.board().max(), null, exercises);
  }

  private static String shortened(String message) {
    return message.length() <= SHORT_MESSAGE ? message : message.substring(0, SHORT_MESSAGE) + "…";
  }

  private static String anchor(int index) {
    return "learner-" + (index + 1);
  }

  // The template's view of the class: Mustache reads these records' accessors by name.

  record Page(String title, int learnerCount, int classSize, int gradedCount, int exerciseCount, String average,
      int max, List<ExerciseRow> scores, List<Column> columns, List<GridRow> grid, List<Legend> legend,
      List<NotStarted> notStarted, boolean anyNotStarted, List<HeatRow> heat, List<Frequent> frequent,
      boolean anyFrequent, List<LearnerSection> learners, List<String> notGraded, boolean anyNotGraded) {

    public String exerciseWord() {
      return exerciseCount == 1 ? "exercise" : "exercises";
    }

    /** Fewer learners than the class has: the grading is still running, or was stopped before the end. */
    public boolean partial() {
      return learnerCount < classSize;
    }
  }

  record ExerciseRow(String id, String title, int max, String average, int fullMarks, int partial, int failing,
      int notStarted, int errors, String errorWords, int learners) {
  }

  record Column(String learner, String anchor, int number) {
  }

  record GridRow(String exercise, String title, List<GridCell> cells) {
  }

  record GridCell(String standing, String symbol, String words, String score, String title, String anchor,
      int number) {
  }

  record Legend(String standing, String symbol, String words) {
  }

  record NotStarted(String exercise, int count, String who) {
  }

  record HeatRow(String exercise, String test, int failedBy, int graded, int level, List<Cell> cells) {
  }

  record Cell(String kind, String title, String anchor) {
  }

  /** A failing test: the learners who attempted its exercise and failed it; the message most of them got. */
  record Frequent(String exercise, String test, String message, int distinctMessages, List<String> learners) {
    public int count() {
      return learners.size();
    }

    public String learnerWord() {
      return learners.size() == 1 ? "learner" : "learners";
    }

    public String who() {
      return String.join(", ", learners);
    }

    public boolean otherMessages() {
      return distinctMessages > 1;
    }
  }

  record LearnerSection(String name, String anchor, String score, String problem, List<LearnerExercise> exercises) {
  }

  record LearnerExercise(String id, String standing, String words, String score, boolean full, String message, List<Lost> lost) {
  }

  record Lost(String test, String score, String message) {
  }
}
