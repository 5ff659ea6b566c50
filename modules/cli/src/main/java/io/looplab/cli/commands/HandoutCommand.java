package io.looplab.cli.commands;

import io.looplab.cli.engine.Console;
import io.looplab.cli.engine.Kit;
import io.looplab.cli.engine.UsageError;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes the kit as learners get it: every file git tracks, without the reference solutions and their mutants. */
@Command(name = "handout",
    description = "Write a copy of the kit for learners into DIR, without solutions/ (so without the mutants and "
        + "alternatives either), as a git repository of its own: ./lab and mvn -B verify work in it.",
    footerHeading = "%nExample:%n", footer = "  ./lab handout ../loop-lab-handout")
public final class HandoutCommand implements Runnable {

  @Mixin
  HelpOption help;

  @Parameters(paramLabel = "DIR", description = "a folder that does not exist yet, or an empty one")
  Path dir;

  @Override
  public void run() {
    Kit kit = Kit.locate();
    Path into = dir.toAbsolutePath().normalize();
    if (into.startsWith(kit.root())) {
      throw new UsageError("handout " + dir + ": write it outside the kit (" + kit.root() + ")");
    }
    try {
      if (Files.exists(into) && (!Files.isDirectory(into) || isNotEmpty(into))) {
        throw new UsageError("handout " + dir + ": " + (Files.isDirectory(into) ? "not empty" : "is a file")
            + "; give a new folder");
      }
      Handout.Written written = Handout.write(kit, into);
      Console console = Console.current();
      console.line("Wrote the learners' kit to " + into + ": " + written.files() + " files, without "
          + written.leftOut() + " files of solutions/, committed as a git repository of its own. Hand it out as "
          + "it is, or push it where learners clone from.");
      if (!written.restored().isEmpty()) {
        console.line("Your working copy changed " + written.restored().size() + " file(s) of the stubs or graded "
            + "tests; the handout has them as the kit shipped them (modules/originals.txt): "
            + String.join(", ", written.restored()));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static boolean isNotEmpty(Path dir) throws IOException {
    try (var list = Files.list(dir)) {
      return list.findAny().isPresent();
    }
  }
}
