package io.looplab.cli.commands;

import io.looplab.cli.engine.Console;
import io.looplab.cli.engine.Exercise;
import io.looplab.cli.engine.JavaRuntimes;
import io.looplab.cli.engine.Kit;
import io.looplab.cli.engine.Results;
import io.looplab.report.ExerciseResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.util.Optional;

/** The exercises in course order, each with its latest score, and a progress bar. */
@Command(name = "list",
    description = "List the exercises in course order, with your latest score in each, and what to do next.",
    footerHeading = "%nExample:%n", footer = "  ./lab list")
public final class ListCommand implements Runnable {

  @Mixin
  HelpOption help;

  @Override
  public void run() {
    Kit kit = Kit.locate();
    Results results = new Results(kit);
    Console console = new Console();
    console.line("Loop Lab: " + kit.exercises().size() + " exercises");
    int done = 0;
    int points = 0;
    int max = 0;
    Exercise next = null;
    for (Exercise e : kit.exercises()) {
      Optional<ExerciseResult> latest = results.latest(e);
      String state;
      if (!e.runsHere()) {
        state = "needs JDK " + e.minimumJava() + " or newer (this is JDK " + JavaRuntimes.current() + ")";
      } else if (latest.isEmpty()) {
        state = "not checked yet";
      } else {
        ExerciseResult r = latest.get();
        points += r.points();
        max += r.max();
        boolean complete = r.isComplete();
        done += complete ? 1 : 0;
        state = console.score(r.points(), r.max()) + (complete ? " done" : "")
            + (results.changedSince(e) ? " (edited since)" : "");
      }
      boolean complete = latest.map(ExerciseResult::isComplete).orElse(false);
      if (!complete && next == null && e.runsHere()) {
        next = e;
      }
      String mark = complete ? console.mark(true) : "·";
      console.line(String.format("  %s %-" + Console.ID_WIDTH + "s %-52s %s", mark, e.id(),
          Console.truncate(e.title(), 52), state));
    }
    int total = kit.exercises().size();
    console.line("");
    console.line("Progress " + console.bar(total == 0 ? 0 : (double) done / total, 30) + " " + done + "/" + total
        + " exercises done" + (max > 0 ? ", " + points + "/" + max + " points in the exercises checked" : ""));
    if (next != null) {
      console.line("Next: ./lab check " + next.id() + "   (read exercises/" + next.id()
          + "/README.md; stuck? ./lab hint " + next.id() + ")");
    } else {
      console.line("All done. Well played.");
    }
  }
}
