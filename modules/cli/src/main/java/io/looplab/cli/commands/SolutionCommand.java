package io.looplab.cli.commands;

import io.looplab.cli.engine.Console;
import io.looplab.cli.engine.Exercise;
import io.looplab.cli.engine.Kit;
import io.looplab.cli.engine.Results;
import io.looplab.cli.engine.UsageError;
import io.looplab.report.ExerciseResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The reference solution of an exercise, as a diff against the learner's code: shown once the learner has full
 * marks, so that it is a comparison and not a shortcut.
 */
@Command(name = "solution",
    description = "Show the reference solution of an exercise as a diff against your code, once ./lab check gave "
        + "it full marks.",
    footerHeading = "%nExamples:%n",
    footer = {"  ./lab solution 02", "  ./lab solution 02 --force   (before full marks)"})
public final class SolutionCommand implements Runnable {

  @Mixin
  HelpOption help;

  @Parameters(paramLabel = "ID", description = "the exercise: id, number or unique prefix")
  String id;

  @Option(names = "--force", description = "show it even without full marks")
  boolean force;

  @Override
  public void run() {
    Kit kit = Kit.locate();
    Exercise exercise = kit.find(id);
    Path reference = kit.solutionSources(exercise);
    if (!Files.isDirectory(reference)) {
      throw new UsageError("this kit has no reference solution for " + exercise.id() + " (" + kit.root()
          .relativize(reference) + " is missing: a handout comes without solutions)");
    }
    Optional<ExerciseResult> latest = new Results(kit).latest(exercise);
    if (!force && latest.map(r -> !r.isComplete()).orElse(true)) {
      throw new UsageError("the reference is shown once ./lab check " + exercise.id() + " gives full marks ("
          + latest.map(r -> "you have " + r.points() + "/" + r.max()).orElse("not checked yet")
          + "); ./lab solution " + exercise.id() + " --force shows it now");
    }
    Console console = Console.current();
    Path yours = kit.root().relativize(exercise.dir().resolve("src/main/java"));
    Path theirs = kit.root().relativize(reference);
    console.line("The reference solution of " + exercise.id() + ", as changes from your code (" + yours + ", lines "
        + "starting with -) to the reference (" + theirs + ", lines starting with +):");
    console.line("");
    String diff = diff(kit.root(), yours, theirs, console);
    console.out().print(diff.isEmpty() ? "(no difference: your code is the reference, line for line)\n" : diff);
    console.out().flush();
  }

  /** A unified diff by git, which the kit needs anyway; its exit status 1 only means "they differ". */
  private static String diff(Path root, Path yours, Path theirs, Console console) {
    List<String> command = new ArrayList<>(List.of("git", "-c", "core.quotePath=false", "diff", "--no-index",
        "--no-ext-diff", "--src-prefix=yours/", "--dst-prefix=reference/"));
    command.add(console.styled("bold", "x").equals("x") ? "--no-color" : "--color=always");
    command.addAll(List.of("--", yours.toString(), theirs.toString()));
    try {
      Process git = new ProcessBuilder(command).directory(root.toFile()).redirectErrorStream(true).start();
      git.getOutputStream().close();
      String out;
      try (InputStream in = git.getInputStream()) {
        out = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
      }
      int status = git.waitFor();
      if (status > 1) {
        throw new UsageError("git could not compare the two folders: " + out.strip().lines().findFirst().orElse(""));
      }
      return out;
    } catch (IOException e) {
      throw new UsageError("showing the solution needs git on the PATH (" + e.getMessage() + ")");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UsageError("interrupted");
    }
  }
}
