package io.looplab.cli.commands;

import io.looplab.cli.engine.Kit;
import io.looplab.cli.engine.Originals;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.List;

/**
 * Which of the kit's stubs and graded tests differ from the originals the grader uses; for maintainers, records the
 * working copy as the new originals.
 */
@Command(name = "originals",
    description = "List the files of exercises/*/src that differ from the kit's originals.")
public final class OriginalsCommand implements Runnable {

  @Mixin
  HelpOption help;

  @Option(names = "--record", description = "maintainers: record the working copy as the originals ("
      + Originals.MANIFEST + "), after changing a stub or a graded test")
  boolean record;

  @Override
  public void run() {
    Kit kit = Kit.locate();
    if (record) {
      int files = Originals.record(kit);
      System.out.println("Recorded " + files + " files of " + kit.exercises().size() + " exercises in "
          + Originals.MANIFEST + ". Commit it with the change.");
      return;
    }
    List<String> differences = Originals.of(kit).differences();
    if (differences.isEmpty()) {
      System.out.println("Every stub and graded test is as the kit shipped it.");
      return;
    }
    System.out.println("Different from the kit's originals (your edits of src/main are expected; graded tests are "
        + "always taken from the originals):");
    differences.forEach(d -> System.out.println("  " + d));
  }
}
