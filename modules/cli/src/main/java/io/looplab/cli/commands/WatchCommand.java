package io.looplab.cli.commands;

import io.looplab.cli.engine.Console;
import io.looplab.cli.engine.Exercise;
import io.looplab.cli.engine.JavaRuntimes;
import io.looplab.cli.engine.Kit;
import io.looplab.cli.engine.Results;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Grades an exercise again at every save, and moves on to the next one when it passes. */
@Command(name = "watch",
    description = "Grade an exercise again each time you save one of its files, and move on to the next exercise "
        + "when it passes. Keys: h hint, l list, r run again, q quit.",
    footerHeading = "%nExamples:%n",
    footer = {"  ./lab watch        (from the first exercise not yet done)", "  ./lab watch 09"})
public final class WatchCommand implements Runnable {

  @Mixin
  HelpOption help;

  @Parameters(paramLabel = "ID", arity = "0..1",
      description = "the exercise to start with: id, number or unique prefix (default: the first not yet done)")
  String id;

  @Option(names = "--timing", description = "also say how long after your save each verdict came")
  boolean timing;

  @Option(names = "--stay", description = "keep watching this exercise after full marks (to try another design)")
  boolean stay;

  @Override
  public void run() {
    Kit kit = Kit.locate();
    Results results = new Results(kit);
    Exercise first = id != null ? kit.find(id) : kit.exercises().stream().filter(Exercise::runsHere)
        .filter(e -> results.latest(e).map(r -> !r.isComplete()).orElse(true)).findFirst()
        .orElse(kit.exercises().get(0));
    if (!first.runsHere()) {
      Console.current().line(JavaRuntimes.missing(first) + ".");
      return;
    }
    watch(kit, first, Console.current(), System.in, timing, stay);
  }

  /**
   * Watches from {@code first} until q (or the end of {@code keys}), saying everything on {@code console}; with
   * {@code stay}, it never moves on to the next exercise.
   */
  public static void watch(Kit kit, Exercise first, Console console, java.io.InputStream keys, boolean timing,
      boolean stay) {
    try (TerminalKeys terminal = TerminalKeys.open(keys)) {
      new WatchLoop(kit, console, terminal, timing, stay).run(first);
    }
  }
}
