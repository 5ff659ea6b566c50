package io.looplab.cli.engine;

import io.looplab.grader.internal.scoring.InFlightReport;
import io.looplab.grader.internal.scoring.VerdictFormat;
import io.looplab.grader.internal.scoring.VerdictStream;
import io.looplab.report.ExerciseResult;
import io.looplab.report.ExerciseStatus;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The last step of a grading: the report, from what the grading JVM said (its signed records, checked against the
 * exercise's plan) and how it ended (time limit, exit code, output dropped, memory), with every note the grading
 * calls for. A verdict that cannot be believed, or a time limit that struck a machine too busy, is "not graded",
 * never lost points.
 */
final class ReportAssembly {

  /**
   * Where a grading's verdict is: the signed records of the JVM that ran it, under the job's name (the report file it
   * was given, which is never read), and the test methods it was asked to run (all when empty); and the learner's
   * compiled classes, where a JVM that ended early may have been told to.
   */
  record Verdict(VerdictStream stream, Path job, List<String> onlyTests, Path classes) {
  }

  private final ExercisePlans plans;

  ReportAssembly(ExercisePlans plans) {
    this.plans = plans;
  }

  ExerciseResult conclude(Exercise exercise, GradingSources sources, Verdict verdict, Path log,
      ForkedJvm.Outcome outcome, long limit) {
    ExerciseResult plan = plans.of(exercise);
    Optional<InFlightReport> written = verdict.stream().latest(verdict.job());
    Optional<String> unbelievable = verdict.stream().problem().map(p -> "the grading JVM's output held " + p)
        .or(() -> written.flatMap(w -> PlanMatch.mismatch(plan, w.report(), verdict.onlyTests())))
        .or(() -> written.isEmpty() && !outcome.timedOut() && outcome.exitCode() == 0
            ? Optional.of("the grading JVM ended normally without handing over a verdict") : Optional.empty());
    if (unbelievable.isPresent()) {
      return notGraded(PlanMatch.only(plan, verdict.onlyTests()), unbelievable.get());
    }
    ExerciseResult report = written.map(InFlightReport::report).orElse(plan);
    String running = written.map(InFlightReport::running).orElse(null);
    boolean endedEarly = written.isEmpty() || !written.get().finished() || outcome.exitCode() != 0;
    Optional<VerdictStream.Where> where = verdict.stream().where(verdict.job());
    if (outcome.timedOut() && tooBusy(outcome, limit) && !where.map(VerdictStream.Where::inLearnersCode).orElse(false)) {
      // Stopped outside the learner's code, after waiting for a CPU for much of its time: that is the machine's.
      return notGraded(PlanMatch.only(plan, verdict.onlyTests()), "the machine was too busy: the grading JVM's "
          + "threads had waited " + outcome.cpuWaitMillis() / 1000 + " s for a CPU when its time limit of " + limit
          + " s struck, and its tests were not in your code" + where.map(w -> w.text().isEmpty() ? "" : " ("
          + w.text() + ")").orElse(""));
    }
    if (outcome.timedOut()) {
      report = report.stoppedAtTimeLimit(limit, running, where.map(VerdictStream.Where::text)
          .filter(t -> !t.isEmpty()).orElse(null));
    } else if (endedEarly) {
      report = report.crashed(outcome.exitCode(), outcome.droppedBytes(), log, running,
          ExitCalls.in(verdict.classes()));
    }
    if (outcome.droppedBytes() > 0 && report.status() != ExerciseStatus.CRASHED) {
      report = report.withNote("The code printed more than the log keeps: " + outcome.droppedBytes()
          + " bytes of output were dropped (" + log + " has the first " + ForkedJvm.MAX_LOG_BYTES / 1024 + " KiB).");
    }
    // Only a JVM that ended early can have run out of memory: it exits on OutOfMemoryError (looplab.argLine).
    Optional<String> outOfMemory = endedEarly || outcome.timedOut()
        ? firstLineWith(log, "java.lang.OutOfMemoryError") : Optional.empty();
    if (outOfMemory.isPresent()) {
      report = report.withNote("The code ran out of memory: " + outOfMemory.get().strip() + " (in " + log + "). "
          + "Something keeps growing: a list, a queue, a map that is never emptied.");
    }
    String note = sources.originNote();
    if (note != null) {
      report = report.withNote(note);
    }
    if (sources.ignoredTests() != null) {
      // Only src/main is ever taken: tests that came with the code would grade it by its own rules.
      report = report.withNote("The submission's own tests (" + sources.ignoredTests() + ") were not used: every "
          + "grade comes from the kit's original tests.");
    }
    if (exercise.minimumJava() > JavaRuntimes.current()) {
      report = report.withNote("Graded on " + exercise.launcher() + ": this exercise needs JDK "
          + exercise.minimumJava() + " or newer, and the kit runs on JDK " + JavaRuntimes.current() + ".");
    }
    return report;
  }

  /**
   * Whether a JVM stopped at the time limit waited for a CPU for more than a quarter of that limit: on a quiet machine
   * it waits milliseconds, and a hang waits for nothing, so that much waiting means the machine, not the code, ran out
   * of time.
   */
  static boolean tooBusy(ForkedJvm.Outcome outcome, long limitSeconds) {
    return outcome.cpuWaitMillis() > limitSeconds * 1000 / 4;
  }

  /**
   * A report in which every test of the plan is not graded, for {@code why}: the kit cannot tell what the grader
   * said, so it gives neither points nor lost points (and grades the exercise again).
   */
  private static ExerciseResult notGraded(ExerciseResult plan, String why) {
    return plan.notGradedBecause(why + ". The kit cannot tell what the grader said, so this grading counts "
        + "neither points nor lost points. (Graded code must never print a line that starts with "
        + VerdictFormat.MARK + ".)");
  }

  /** The first line of {@code log} that contains {@code text}: the log is capped, so this reads at most 1 MiB. */
  private static Optional<String> firstLineWith(Path log, String text) {
    try (Stream<String> lines = Files.lines(log, StandardCharsets.ISO_8859_1)) {
      return lines.filter(l -> l.contains(text)).findFirst();
    } catch (IOException | UncheckedIOException e) {
      return Optional.empty();
    }
  }
}
