package io.looplab.cli.commands;

import io.looplab.cli.engine.Console;
import io.looplab.cli.engine.Exercise;
import io.looplab.cli.engine.FileTrees;
import io.looplab.cli.engine.Kit;
import io.looplab.cli.engine.Originals;
import io.looplab.cli.engine.Results;
import io.looplab.cli.engine.UsageError;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** Puts an exercise's stub back as the kit shipped it, after a confirmation, keeping what it replaces. */
@Command(name = "reset",
    description = "Put the kit's stub of an exercise back in exercises/ID/src/main, after asking. What it replaces "
        + "is kept in backups/ID/.",
    footerHeading = "%nExamples:%n", footer = {"  ./lab reset 02", "  ./lab reset 02-blocking-calls --yes"})
public final class ResetCommand implements Runnable {

  @Mixin
  HelpOption help;

  @Parameters(paramLabel = "ID", description = "the exercise: id, number or unique prefix")
  String id;

  @Option(names = {"-y", "--yes"}, description = "do not ask")
  boolean yes;

  @Override
  public void run() {
    Kit kit = Kit.locate();
    Exercise exercise = kit.find(id);
    Originals.Copy stub = Originals.of(kit).of(exercise, Originals.Part.STUB);
    if (!stub.recovered()) {
      throw new UsageError("cannot find the original stub of " + exercise.id() + " (" + stub.whyNot() + ")");
    }
    Console console = Console.current();
    Path main = exercise.dir().resolve("src/main");
    if (!stub.changedInWorkingCopy()) {
      console.line(kit.root().relativize(main) + " is already the kit's stub: nothing to reset.");
      return;
    }
    String when = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT));
    Path backup = kit.root().resolve("backups").resolve(exercise.id()).resolve(when);
    if (!yes && !confirmed(console, kit.root().relativize(main), Originals.describe(stub.changed()))) {
      console.line("Nothing changed.");
      return;
    }
    try {
      FileTrees.copy(main, backup.resolve("main"));
      FileTrees.replaceContents(main, stub.dir());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    new Results(kit).forget(exercise);
    console.line("Reset " + kit.root().relativize(main) + " to the kit's stub. Your version is in "
        + kit.root().relativize(backup) + "/main.");
  }

  private static boolean confirmed(Console console, Path main, String changes) {
    console.out().print("Replace " + main + " (" + changes + ") with the kit's stub? A backup is kept. [y/N] ");
    console.out().flush();
    try {
      String answer = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
      if (answer == null) {
        console.line("");
        throw new UsageError("reset asks before it replaces your files, and got no answer: add --yes to reset anyway");
      }
      return answer.strip().toLowerCase(Locale.ROOT).startsWith("y");
    } catch (IOException e) {
      return false;
    }
  }
}
