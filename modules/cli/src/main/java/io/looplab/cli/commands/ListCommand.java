package io.looplab.cli.commands;

import io.looplab.cli.engine.Console;
import io.looplab.cli.engine.Exercise;
import io.looplab.cli.engine.JavaRuntimes;
import io.looplab.cli.engine.Kit;
import io.looplab.cli.engine.Results;
import io.looplab.report.ExerciseResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The exercises in course order, each with its latest score, and a progress bar. */
@Command(name = "list",
    description = "List the exercises in course order, with your latest score in each, and what to do next.",
    footerHeading = "%nExample:%n", footer = "  ./lab list")
public final class ListCommand implements Runnable {

  /** The room kept for a row's state, "not checked yet" or "24/24 done": a longer one takes it from the title. */
  private static final int STATE_RESERVE = 15;

  @Mixin
  HelpOption help;

  @Override
  public void run() {
    Kit kit = Kit.locate();
    Results results = new Results(kit);
    Console console = Console.current();
    console.line("Loop Lab: " + kit.exercises().size() + " exercises");
    int done = 0;
    int points = 0;
    int max = 0;
    Exercise next = null;
    List<String[]> rows = new ArrayList<>();
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
      rows.add(new String[] {complete ? console.mark(true) : "·", e.id(), e.title(), state});
    }
    int titleWidth = console.titleWidth(kit.exercises().stream().mapToInt(e -> e.title().length()).max().orElse(0),
        STATE_RESERVE);
    rows.forEach(row -> console.line(console.row(row[0], row[1], row[2], titleWidth, row[3])));
    int total = kit.exercises().size();
    console.line("");
    console.line("Progress " + console.bar(total == 0 ? 0 : (double) done / total, 30) + " " + done + "/" + total
        + " exercises done" + (max > 0 ? ", " + points + "/" + max + " points in the exercises checked" : ""));
    if (next != null) {
      // Two lines, each within 80 columns for the longest id; the hint takes the exercise's number.
      console.line("Next: ./lab check " + next.id());
      console.line("      read exercises/" + next.id() + "/README.md; stuck? ./lab hint " + next.id().split("-")[0]);
    } else {
      console.line("All done. Well played.");
    }
  }
}
