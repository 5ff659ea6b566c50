package io.looplab.cli.commands;

import io.looplab.cli.engine.Console;
import io.looplab.cli.engine.Exercise;
import io.looplab.cli.engine.GradingEngine;
import io.looplab.cli.engine.JavaRuntimes;
import io.looplab.cli.engine.Kit;
import io.looplab.cli.engine.Results;
import io.looplab.cli.engine.Target;
import io.looplab.cli.session.Outbox;
import io.looplab.cli.session.VerdictPosting;
import io.looplab.report.ExerciseResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;

/** Grades one exercise of the learner's own copy and explains every test. */
@Command(name = "check",
    description = "Grade one exercise of exercises/ and explain each test: ✓ or ✗, its points, and what went "
        + "wrong.",
    footerHeading = "%nExamples:%n",
    footer = {"  ./lab check 02-blocking-calls",
        "  ./lab check 02            (its number, or any prefix only one id has)",
        "  ./lab check 09 --debug    (while you step through your code in a debugger)"})
public final class CheckCommand implements Runnable {

  @Mixin
  HelpOption help;

  /** The time limit in debug mode; {@link GradingEngine} applies it. */
  private static final int DEBUG_MINUTES = 30;

  @Parameters(paramLabel = "ID", description = "the exercise: its id, its number (02) or a unique prefix of its id")
  String id;

  @Option(names = "--debug", description = "for stepping through in a debugger: stall detection off, time limit "
      + DEBUG_MINUTES + " min")
  boolean debug;

  @Override
  public void run() {
    Kit kit = Kit.locate();
    Exercise exercise = kit.find(id);
    Console console = Console.current();
    if (!exercise.runsHere()) {
      console.line(JavaRuntimes.missing(exercise) + ".");
      return;
    }
    if (debug) {
      console.line("Debug mode: stall detection is off (a breakpoint would look like a stall) and the time limit is "
          + DEBUG_MINUTES + " minutes. Blocking calls are still reported.");
    }
    CompletableFuture<Outbox.Sent> sending;
    try (GradingEngine engine = new GradingEngine(kit, debug)) {
      sending = checkAndPost(kit, exercise, console, engine).sending();
    }
    // The verdict is on screen: a send still under way gets a moment, then the next command or the check server
    // sends what is left.
    VerdictPosting.awaitBriefly(sending);
  }

  /** A check's verdict, and the send of it to the session (a completed future in a kit that joined none). */
  private record Checked(ExerciseResult report, CompletableFuture<Outbox.Sent> sending) {
  }

  /**
   * Grades {@code exercise} of the learner's copy, saves the result and explains it: what lab check prints. Returns
   * the report.
   */
  public static ExerciseResult check(Kit kit, Exercise exercise, Console console, GradingEngine engine) {
    return checkAndPost(kit, exercise, console, engine).report();
  }

  private static Checked checkAndPost(Kit kit, Exercise exercise, Console console, GradingEngine engine) {
    ExerciseResult report = engine.grade(exercise, Target.exercises(kit), console.progress(1, 1));
    Results results = new Results(kit);
    results.save(report);
    console.line(exercise.id() + ": " + exercise.title());
    console.testLines(report, false);
    console.line("");
    console.line("Score " + console.score(report.points(), report.max()) + " (" + report.status() + ")");
    Path log = kit.root().relativize(engine.latestLog(exercise, Target.exercises(kit))
        .orElse(engine.lastLog().orElse(kit.workDir())));
    for (String line : NextStep.after(kit, results, exercise, report, log)) {
      console.line(line);
    }
    // After the verdict is printed, never before: the learner reads it while it is sent.
    return new Checked(report, VerdictPosting.post(kit, exercise, report, HintCommand.hintsUsed(kit, exercise),
        "check"));
  }
}
