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
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** `./lab grade --class DIR`: every learner's folder graded, a line per learner as they finish, then the report. */
final class ClassGradeRun {

  static final Path DEFAULT_REPORT = Path.of("class-report");

  private ClassGradeRun() {
  }

  static void run(Kit kit, Path classDir, List<Exercise> exercises, Path out, int jobs, Sandbox sandbox) {
    ClassRoster roster = ClassRoster.of(classDir);
    Path report = out == null ? DEFAULT_REPORT : out;
    checkReportFolder(report);
    Console console = Console.current();
    int count = roster.learners().size();
    console.line("Grading a class of " + count + " learner" + (count == 1 ? "" : "s") + " in " + classDir + ": "
        + exercises.size() + " exercise" + (exercises.size() == 1 ? "" : "s") + " each, " + jobs + " learner"
        + (jobs == 1 ? "" : "s") + " at a time" + (sandbox != null ? ", each exercise in a sandbox (bubblewrap)" : ""));
    if (!roster.skipped().isEmpty()) {
      console.line("Skipped (not folders): " + String.join(", ", roster.skipped()));
    }
    int width = roster.learners().stream().mapToInt(l -> l.name().length()).max().orElse(0);
    AtomicInteger finished = new AtomicInteger();
    String counter = "[%" + String.valueOf(count).length() + "d/" + count + "] ";
    List<LearnerResult> results;
    try {
      results = new ClassGrading(kit, exercises, jobs, sandbox).grade(roster, r -> {
        String line = String.format(counter, finished.incrementAndGet()) + pad(r.learner(), width) + "  "
            + (r.isGraded() ? console.score(r.board().points(), r.board().max()) : "not graded: " + r.problem())
            + String.format(" (%.1f s)", r.millis() / 1000.0);
        synchronized (console) {
          console.line(line);
        }
      });
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UsageError("interrupted: no report written");
    }
    ClassReport.write(report, "Loop Lab class report: " + classDir.toAbsolutePath().normalize().getFileName(),
        exercises, results);
    console.line("");
    console.line("Class report written to " + report.resolve("index.html") + " and " + report.resolve("class.csv")
        + " (each learner's report in " + report.resolve("learners") + ")");
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
