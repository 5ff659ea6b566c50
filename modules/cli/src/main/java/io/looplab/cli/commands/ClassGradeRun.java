package io.looplab.cli.commands;

import io.looplab.cli.classroom.ClassGrading;
import io.looplab.cli.classroom.ClassReport;
import io.looplab.cli.classroom.ClassRoster;
import io.looplab.cli.classroom.LearnerResult;
import io.looplab.cli.engine.Console;
import io.looplab.cli.engine.Exercise;
import io.looplab.cli.engine.Kit;
import io.looplab.cli.engine.Sandbox;
import io.looplab.cli.engine.UsageError;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * `./lab grade --class DIR`: every learner's folder graded, a line per learner as they finish, and the report
 * rewritten after each (so a run stopped half-way leaves a usable report that says "k of n graded"). With
 * {@code --learner NAME}, only that learner is graded, into the report an earlier run wrote: their row is replaced,
 * everyone else's is kept as it was.
 */
final class ClassGradeRun {

  static final Path DEFAULT_REPORT = Path.of("class-report");

  /** What grades the learners of a roster, telling of each as they finish: {@link ClassGrading}, or a test's own. */
  @FunctionalInterface
  interface Grader {
    void grade(ClassRoster roster, Consumer<LearnerResult> done) throws InterruptedException;
  }

  private final Path classDir;
  private final List<Exercise> exercises;
  private final Path report;
  private final Grader grader;
  private final String how;

  /** A run of the kit's grading: {@code jobs} learners side by side, each exercise in {@code sandbox} (or none). */
  ClassGradeRun(Kit kit, Path classDir, List<Exercise> exercises, Path out, int jobs, Sandbox sandbox) {
    this(classDir, exercises, out, new ClassGrading(kit, exercises, jobs, sandbox)::grade, jobs + " learner"
        + (jobs == 1 ? "" : "s") + " at a time" + (sandbox != null ? ", each exercise in a sandbox (bubblewrap)" : ""));
  }

  ClassGradeRun(Path classDir, List<Exercise> exercises, Path out, Grader grader, String how) {
    this.classDir = classDir;
    this.exercises = exercises;
    this.report = out == null ? DEFAULT_REPORT : out;
    this.grader = grader;
    this.how = how;
  }

  /**
   * What a run will grade, refused before any grading when it cannot be: the roster, and with {@code learner} the
   * report it goes into. Every refusal is a {@link UsageError}, and changes nothing.
   */
  static ClassRoster checked(Path classDir, Path out, String learner) {
    ClassRoster roster = ClassRoster.of(classDir);
    Path report = out == null ? DEFAULT_REPORT : out;
    checkReportFolder(report);
    if (learner != null) {
      if (roster.learners().stream().noneMatch(l -> l.name().equals(learner))) {
        throw new UsageError("--learner " + learner + ": no such learner in " + classDir + " (its learners: "
            + String.join(", ", roster.learners().stream().map(ClassRoster.Learner::name).limit(12).toList())
            + (roster.learners().size() > 12 ? ", ..." : "") + ")");
      }
      if (!Files.isRegularFile(report.resolve("class.csv"))) {
        throw new UsageError("--out " + report + ": not a class report (no class.csv in it): --learner grades one "
            + "learner into a report an earlier --class run wrote");
      }
      ClassReport.read(report);
    }
    return roster;
  }

  /** Grades the whole class. */
  void all() {
    ClassRoster roster = checked(classDir, report, null);
    Console console = Console.current();
    int count = roster.learners().size();
    console.line("Grading a class of " + count + " learner" + (count == 1 ? "" : "s") + " in " + classDir + ": "
        + exercises.size() + " exercise" + (exercises.size() == 1 ? "" : "s") + " each, " + how + "; the report in " + report + " grows as each learner finishes");
    if (!roster.skipped().isEmpty()) {
      console.line("Skipped (not folders): " + String.join(", ", roster.skipped()));
    }
    // an earlier run's report is replaced, not merged: it may hold learners who are no longer in the class
    ClassReport.write(report, title(), exercises, List.of(), count);
    Map<String, LearnerResult> finished = new LinkedHashMap<>();
    List<String> order = roster.learners().stream().map(ClassRoster.Learner::name).toList();
    grade(roster, console, r -> {
      finished.put(r.learner(), r);
      List<LearnerResult> rows = order.stream().filter(finished::containsKey).map(finished::get).toList();
      ClassReport.write(report, title(), exercises, rows, count);
      return rows.size();
    }, count);
    done(console);
  }

  /** Grades {@code learner} alone and puts their row into the existing report, in the class's (name) order. */
  void one(String learner) {
    ClassRoster roster = checked(classDir, report, learner);
    ClassRoster.Learner only = roster.learners().stream().filter(l -> l.name().equals(learner)).findFirst()
        .orElseThrow();
    List<LearnerResult> kept = new ArrayList<>(ClassReport.read(report));
    Console console = Console.current();
    console.line("Grading " + learner + " of " + classDir + " into the report in " + report + " (" + kept.size()
        + " learner" + (kept.size() == 1 ? "" : "s") + " in it; the others' rows are kept as they are)");
    grade(new ClassRoster(roster.dir(), List.of(only), List.of()), console, r -> {
      kept.removeIf(k -> k.learner().equals(learner));
      kept.add(r);
      kept.sort(Comparator.comparing(LearnerResult::learner));
      ClassReport.write(report, title(), exercises, kept, kept.size());
      return 1;
    }, 1);
    done(console);
  }

  /** What to do with each learner as they finish: write the report so far, and say how many are in it. */
  private interface Finished {
    int add(LearnerResult result);
  }

  private void grade(ClassRoster roster, Console console, Finished finished, int count) {
    int width = roster.learners().stream().mapToInt(l -> l.name().length()).max().orElse(0);
    String counter = "[%" + String.valueOf(count).length() + "d/" + count + "] ";
    try {
      grader.grade(roster, r -> {
        // learners finish on several grading threads; the report and the console take one at a time
        synchronized (this) {
          int k = finished.add(r);
          console.line(String.format(counter, k) + pad(r.learner(), width) + "  "
              + (r.isGraded() ? console.score(r.board().points(), r.board().max()) : "not graded: " + r.problem())
              + String.format(" (%.1f s)", r.millis() / 1000.0));
        }
      });
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UsageError("interrupted: the report in " + report + " has the learners finished so far");
    }
  }

  private void done(Console console) {
    console.line("");
    console.line("Class report written to " + report.resolve("index.html") + " and " + report.resolve("class.csv")
        + " (each learner's report in " + report.resolve("learners") + "; without names, for a projector: "
        + report.resolve(ClassReport.PROJECTOR_PAGE) + ")");
  }

  private String title() {
    return "Loop Lab class report: " + classDir.toAbsolutePath().normalize().getFileName();
  }

  /** The report folder: new, or a class report from an earlier run; never a folder of something else. */
  private static void checkReportFolder(Path report) {
    if (Files.exists(report) && !Files.isDirectory(report)) {
      throw new UsageError("--out " + report + ": is a file; with --class it names the report's folder");
    }
    if (Files.isDirectory(report) && !Files.exists(report.resolve("class.csv")) && !isEmpty(report)) {
      throw new UsageError("--out " + report + ": exists and holds something other than a class report (no "
          + "class.csv): choose a new folder");
    }
    Path parent = report.toAbsolutePath().getParent();
    if (parent == null || !Files.isDirectory(parent) || !Files.isWritable(parent)) {
      throw new UsageError("--out " + report + ": cannot write there (does the folder above it exist?)");
    }
  }

  private static boolean isEmpty(Path dir) {
    try (var entries = Files.list(dir)) {
      return entries.findAny().isEmpty();
    } catch (java.io.IOException e) {
      return false;
    }
  }

  private static String pad(String text, int width) {
    return text + " ".repeat(Math.max(0, width - text.length()));
  }
}
