package io.looplab.cli.commands;

import io.looplab.cli.engine.Console;
import io.looplab.cli.engine.Exercise;
import io.looplab.cli.engine.GradingEngine;
import io.looplab.cli.engine.Kit;
import io.looplab.cli.engine.Results;
import io.looplab.cli.engine.Target;
import io.looplab.grader.internal.scoring.ExerciseReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Grades one exercise of the learner's own copy and explains every test. */
@Command(name = "check", description = "Grade one exercise and explain each test.")
public final class CheckCommand implements Runnable {

  @Parameters(paramLabel = "ID", description = "the exercise, e.g. 02-blocking-calls")
  String id;

  @Option(names = "--debug", description = "for stepping through in a debugger: stall detection off, time limit 30 min")
  boolean debug;

  @Override
  public void run() {
    Kit kit = Kit.locate();
    Exercise exercise = kit.find(id);
    Console console = new Console();
    ExerciseReport report = new GradingEngine(kit, debug).grade(exercise, Target.exercises(kit), console.progress(1, 1));
    new Results(kit).save(report);
    console.line(exercise.id() + ": " + exercise.title());
    console.testLines(report, false);
    console.line("");
    console.line("Score " + report.points() + "/" + report.max() + " (" + report.status() + ")");
    if (report.points() < report.max()) {
      console.line("Fix the first ✗ above, then run ./lab check " + id + " again. Stuck? ./lab hint " + id);
    } else {
      console.line("Full marks. Next: ./lab list");
    }
  }
}
