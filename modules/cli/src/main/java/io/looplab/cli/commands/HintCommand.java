package io.looplab.cli.commands;

import io.looplab.cli.engine.Console;
import io.looplab.cli.engine.Exercise;
import io.looplab.cli.engine.Kit;
import io.looplab.cli.engine.Results;
import io.looplab.cli.engine.UsageError;
import io.looplab.report.ExerciseResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The hint ladder: each call without a number shows the next hint, from gentle to nearly the answer; with a
 * number, that hint. Hints live in the exercise's hints.md as "## Hint N" sections.
 */
@Command(name = "hint",
    description = "Show the next hint for an exercise (or hint N): three per exercise, from gentle to nearly the "
        + "answer.",
    footerHeading = "%nExamples:%n",
    footer = {"  ./lab hint 02        (the next hint)", "  ./lab hint 02 2      (hint 2 again)"})
public final class HintCommand implements Runnable {

  @Mixin
  HelpOption help;

  @Parameters(index = "0", paramLabel = "ID", description = "the exercise: id, number or unique prefix")
  String id;

  /** A string, not an int: "two" gets the kit's own line, not picocli's conversion error. */
  @Parameters(index = "1", paramLabel = "N", arity = "0..1", description = "which hint, from 1")
  String number;

  @Override
  public void run() {
    Kit kit = Kit.locate();
    Exercise exercise = kit.find(id);
    List<String> hints = parse(exercise.hints());
    if (hints.isEmpty()) {
      throw new UsageError(exercise.id() + " has no hints");
    }
    Path seen = seenFile(kit, exercise);
    int shown = readSeen(seen);
    int n = number != null ? asked(number, exercise, hints.size()) : Math.min(shown + 1, hints.size());
    // The ladder moves one rung at a time: a peek further up (hint 3 after hint 1) shows that hint and leaves the
    // next plain ./lab hint at hint 2.
    if (n == shown + 1) {
      writeSeen(seen, n);
    }
    Console console = Console.current();
    console.line("Hint " + n + " of " + hints.size() + " for " + exercise.id() + ":");
    console.line("");
    console.line(hints.get(n - 1));
    console.line("");
    if (n < hints.size()) {
      // After a peek the plain command may be lower on the ladder: name the hint by its number.
      console.line("Still stuck? ./lab hint " + exercise.id() + (number == null ? "" : " " + (n + 1)) + " shows hint "
          + (n + 1) + ".");
    } else {
      boolean fullMarks = new Results(kit).latest(exercise).map(ExerciseResult::isComplete).orElse(false);
      console.line(fullMarks
          ? "That was the last hint. You have full marks already: ./lab solution " + exercise.id()
              + " shows the reference solution, to compare with yours."
          : "That was the last hint: it is nearly the answer. Once you have full marks, ./lab solution " + exercise.id()
              + " shows the reference.");
    }
  }

  /** The hint number asked for, or one line saying which exist. */
  private static int asked(String number, Exercise exercise, int count) {
    int n;
    try {
      n = Integer.parseInt(number.strip());
    } catch (NumberFormatException e) {
      n = -1;
    }
    if (n < 1 || n > count) {
      throw new UsageError("there is no hint '" + number + "' for " + exercise.id() + ": its hints are 1 to " + count
          + " (./lab hint " + exercise.id() + " gives the next one)");
    }
    return n;
  }

  static List<String> parse(Path file) {
    List<String> hints = new ArrayList<>();
    if (!Files.exists(file)) {
      return hints;
    }
    StringBuilder current = null;
    try {
      for (String line : Files.readAllLines(file)) {
        if (line.startsWith("## ")) {
          if (current != null) {
            hints.add(current.toString().strip());
          }
          current = new StringBuilder();
        } else if (current != null) {
          current.append(line).append('\n');
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (current != null) {
      hints.add(current.toString().strip());
    }
    return hints;
  }

  /** How far up the ladder the learner has gone for {@code exercise}: 0 before the first hint. */
  public static int hintsUsed(Kit kit, Exercise exercise) {
    return readSeen(seenFile(kit, exercise));
  }

  private static Path seenFile(Kit kit, Exercise exercise) {
    return kit.workDir().resolve("hints").resolve(exercise.id());
  }

  private static int readSeen(Path f) {
    try {
      return Files.exists(f) ? Integer.parseInt(Files.readString(f).trim()) : 0;
    } catch (IOException | NumberFormatException e) {
      return 0;
    }
  }

  private static void writeSeen(Path f, int n) {
    try {
      Files.createDirectories(f.getParent());
      Files.writeString(f, Integer.toString(n));
    } catch (IOException e) {
      // remembering the ladder is a convenience; the hint was shown anyway
    }
  }
}
