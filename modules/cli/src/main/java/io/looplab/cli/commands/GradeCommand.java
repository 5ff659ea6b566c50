package io.looplab.cli.commands;

import io.looplab.cli.engine.Console;
import io.looplab.cli.engine.Exercise;
import io.looplab.cli.engine.GradingEngine;
import io.looplab.cli.engine.JavaRuntimes;
import io.looplab.cli.engine.Kit;
import io.looplab.cli.engine.Results;
import io.looplab.cli.engine.Sandbox;
import io.looplab.cli.engine.Scoreboard;
import io.looplab.cli.engine.Target;
import io.looplab.cli.engine.UsageError;
import io.looplab.cli.formats.ExportOptions;
import io.looplab.cli.formats.ResultFormat;
import io.looplab.cli.formats.TestMethods;
import io.looplab.report.ExerciseResult;
import io.looplab.report.ExerciseStatus;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Grades every exercise (or some) of one target and prints the scoreboard, a line per exercise and the total; the
 * failing tests' messages only when asked (--verbose, or the exercises named with --only). Optionally writes the JSON
 * report, which always has everything.
 */
@Command(name = "grade",
    description = "Grade exercises/ (or the solutions, or a submission) and print the scoreboard: a line per "
        + "exercise, then the total. --verbose (or --only) adds what each failing test says.",
    footerHeading = "%nExamples:%n",
    footer = {"  ./lab grade                                  (your exercises/, every exercise)",
        "  ./lab grade --only 02 --only 03              (some of them, with what each failing test says)",
        "  ./lab grade --verbose                        (every exercise, with what each failing test says)",
        "  ./lab grade --submission ../alice --json alice.json",
        "  ./lab grade --format junit --out TEST-looplab.xml   (also: exercism, gradescope, classroom)",
        "  ./lab grade --class ../class --out ../class-report   (one folder per learner; --jobs 4)",
        "  ./lab grade --class ../class --out ../class-report --learner alice   (alice again, into that report)",
        "  ./lab grade --solutions                      (the reference solutions: full marks)"})
public final class GradeCommand implements Runnable {

  @Mixin
  HelpOption help;

  @Option(names = "--solutions", description = "grade solutions/ instead of exercises/")
  boolean solutions;

  @Option(names = "--submission", paramLabel = "DIR",
      description = "grade a learner's copy: the layout of exercises/, or a whole kit")
  Path submission;

  @Option(names = "--only", paramLabel = "ID",
      description = "grade only this exercise, with what its failing tests say: id, number or unique prefix "
          + "(repeatable)")
  List<String> only = new ArrayList<>();

  @Option(names = "--verbose", description = "under each exercise, every failing test with its message (as --only "
      + "does for the exercises it names)")
  boolean verbose;

  @Option(names = "--json", paramLabel = "FILE", description = "also write the report as JSON")
  Path json;

  @Option(names = "--format", paramLabel = "FORMAT", description = "also write the report for another tool, into "
      + "--out: ${COMPLETION-CANDIDATES} (Exercism's results.json v3, Gradescope's results.json, JUnit XML, GitHub "
      + "Classroom's reporter)")
  ResultFormat format;

  @Option(names = "--out", paramLabel = "FILE", description = "where --format writes; with --class, the report's "
      + "folder (default: class-report)")
  Path out;

  @Option(names = "--class", paramLabel = "DIR", description = "grade a whole class: DIR holds one folder per learner, "
      + "each as --submission takes it; writes class.csv, index.html and each learner's JSON into --out")
  Path classDir;

  @Option(names = "--learner", paramLabel = "NAME", description = "with --class: grade only this learner (a folder "
      + "of DIR) and replace their row in the report an earlier --class run wrote into --out, keeping the others'")
  String learner;

  @Option(names = "--visibility", paramLabel = "WHEN", description = "with --format gradescope: when learners see "
      + "each test's result: visible (default), hidden, after_due_date or after_published")
  String visibility;

  @Option(names = "--sandbox", negatable = true, description = "run each exercise's JVM under bubblewrap: files "
      + "read-only but its own work folder, loopback only, its own PIDs (default: on for --submission and --class)")
  Boolean sandbox;

  @Option(names = "--jobs", paramLabel = "N", description = "with --class: how many learners are graded side by side "
      + "(default: the number of cores)")
  Integer jobs;

  @Override
  public void run() {
    Kit kit = Kit.locate();
    if ((solutions ? 1 : 0) + (submission != null ? 1 : 0) + (classDir != null ? 1 : 0) > 1) {
      throw new UsageError("choose one of --solutions, --submission and --class");
    }
    if (jobs != null && classDir == null) {
      throw new UsageError("--jobs works with --class: a single target is graded one exercise at a time");
    }
    if (jobs != null && jobs < 1) {
      throw new UsageError("--jobs " + jobs + ": must be 1 or more");
    }
    if (learner != null && classDir == null) {
      throw new UsageError("--learner works with --class: it names a learner's folder in the class folder");
    }
    if (visibility != null && format != ResultFormat.gradescope) {
      throw new UsageError("--visibility works with --format gradescope");
    }
    if (visibility != null && !ExportOptions.VISIBILITIES.contains(visibility)) {
      throw new UsageError("--visibility " + visibility + ": must be one of "
          + String.join(", ", ExportOptions.VISIBILITIES));
    }
    if (classDir != null) {
      if (json != null || format != null) {
        throw new UsageError("--class writes its own reports into --out (class.csv, index.html, learners/*.json): "
            + (json != null ? "--json" : "--format") + " works with one target");
      }
      ClassGradeRun.checked(classDir, out, learner);
      ClassGradeRun run = new ClassGradeRun(kit, classDir, gradableHere(chosen(kit), Console.current()), out,
          jobs != null ? jobs : Runtime.getRuntime().availableProcessors(), sandbox(true));
      if (learner != null) {
        run.one(learner);
      } else {
        run.all();
      }
      return;
    }
    Target target = solutions ? Target.solutions(kit) : submission != null ? Target.submission(kit, submission)
        : Target.exercises(kit);
    checkWritable("--json", json);
    if ((format == null) != (out == null)) {
      throw new UsageError(format == null ? "--out needs --format (exercism, gradescope, junit or classroom)"
          : "--format " + format + " needs --out FILE: where to write it");
    }
    checkWritable("--out", out);
    Sandbox confined = sandbox(submission != null);

    Console console = Console.current();
    List<Exercise> chosen = gradableHere(chosen(kit), console);
    console.line("Grading " + target.label() + ": " + chosen.size() + " exercise" + (chosen.size() == 1 ? "" : "s")
        + (confined != null ? ", each in a sandbox (bubblewrap: read-only files, loopback only)" : ""));
    Results results = new Results(kit);
    List<ExerciseResult> reports = new ArrayList<>();
    boolean details = verbose || !only.isEmpty();
    int titleWidth = console.titleWidth(chosen.stream().mapToInt(e -> e.title().length()).max().orElse(0),
        Console.EXERCISE_LINE_RESERVE);
    try (GradingEngine grader = new GradingEngine(kit, false, confined)) {
      for (int i = 0; i < chosen.size(); i++) {
        ExerciseResult r = grader.grade(chosen.get(i), target, console.progress(i + 1, chosen.size()));
        reports.add(r);
        if (target.isLearnersOwnCopy()) {
          results.save(r);
        }
        scoreboardLine(console, r, titleWidth, details);
      }
    }
    Scoreboard board = new Scoreboard(reportLabel(target), reports);
    if (!details && reports.stream().anyMatch(r -> !r.isComplete())) {
      console.line("");
      console.line("What each failing test says: ./lab grade --verbose" + (submission != null ? " --submission "
          + submission : "") + " (every exercise), or --only ID (one)" + (json != null ? "; all of it is in "
          + json : ""));
    }
    console.line("");
    console.line(console.totalLine(board.points(), board.max()));
    if (json != null) {
      write(json, board.toJson().encodePrettily());
      console.line("Report written to " + json);
    }
    if (format != null) {
      write(out, format.render(board, new ExportOptions(kit.exercises().stream().map(Exercise::id).toList(),
          visibility == null ? ExportOptions.DEFAULT_VISIBILITY : visibility, new TestMethods(kit))));
      console.line("Report for " + format + " written to " + out);
    }
  }

  /**
   * What a report calls the target: a submission by its folder's name, never the path it was given by (an
   * instructor's absolute path would end up in a report the learner or a platform sees).
   */
  private String reportLabel(Target target) {
    if (submission == null) {
      return target.label();
    }
    Path name = submission.toAbsolutePath().normalize().getFileName();
    return name == null ? "submission" : name.toString();
  }

  /**
   * An exercise's line of the scoreboard; with {@code details}, its failing tests and their messages under it.
   * Without, what the exercise itself says still follows its line (why the grader could not grade it, which is no
   * lost point; where its code or tests came from), but not a compiler's errors, which are the code's own details.
   */
  static void scoreboardLine(Console console, ExerciseResult r, int titleWidth, boolean details) {
    console.exerciseLine(r, titleWidth);
    if (details) {
      console.testLines(r, true);
    } else if (r.message() != null && r.status() != ExerciseStatus.COMPILE_ERROR) {
      console.wrapped(r.message(), "      ");
    }
  }

  /**
   * The sandbox to grade in: asked for with --sandbox (refused when this machine has none), or by default for other
   * people's code, where a missing bubblewrap costs one warning and no grading.
   */
  private Sandbox sandbox(boolean othersCode) {
    boolean wanted = sandbox != null ? sandbox : othersCode;
    if (!wanted) {
      return null;
    }
    Optional<Sandbox> here = Sandbox.onThisMachine();
    if (here.isEmpty() && Boolean.TRUE.equals(sandbox)) {
      throw new UsageError("--sandbox: bubblewrap is missing or cannot make namespaces here (install Debian's "
          + "bubblewrap package)");
    }
    if (here.isEmpty()) {
      Console.current().line(Sandbox.missingWarning());
    }
    return here.orElse(null);
  }

  private List<Exercise> chosen(Kit kit) {
    return only.isEmpty() ? kit.exercises() : only.stream().distinct().map(kit::find).toList();
  }

  /** The exercises this machine can grade; one line for each that needs a newer JDK than it has. */
  static List<Exercise> gradableHere(List<Exercise> exercises, Console console) {
    for (Exercise e : exercises) {
      if (!e.runsHere()) {
        console.line("Not graded: " + JavaRuntimes.missing(e) + ".");
      }
    }
    return exercises.stream().filter(Exercise::runsHere).toList();
  }

  private static void write(Path file, String text) {
    try {
      Files.writeString(file, text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Refuse a report path that cannot be written before spending minutes grading. */
  private static void checkWritable(String option, Path file) {
    if (file == null) {
      return;
    }
    Path parent = file.toAbsolutePath().getParent();
    if (Files.isDirectory(file)) {
      throw new UsageError(option + " " + file + ": is a folder, expected a file name");
    }
    if (parent == null || !Files.isDirectory(parent) || !Files.isWritable(parent)) {
      throw new UsageError(option + " " + file + ": cannot write there (does the folder exist?)");
    }
  }
}
