package io.looplab.cli.classroom;

import io.looplab.cli.engine.UsageError;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The learners of a class folder: one sub-folder per learner, named by it, in name order. Hidden entries (.git,
 * .DS_Store) are not learners; a plain file (an unzipped archive left beside the folders, say) is skipped and named,
 * so that the instructor sees it was not graded.
 */
public record ClassRoster(Path dir, List<Learner> learners, List<String> skipped) {

  /** One learner: the folder's name, and the folder, graded as `./lab grade --submission` would. */
  public record Learner(String name, Path folder) {
  }

  public static ClassRoster of(Path dir) {
    if (!Files.exists(dir)) {
      throw new UsageError("--class " + dir + ": no such folder");
    }
    if (!Files.isDirectory(dir)) {
      throw new UsageError("--class " + dir + ": not a folder (expected one folder per learner, each with the "
          + "layout of exercises/)");
    }
    List<Learner> learners = new ArrayList<>();
    List<String> skipped = new ArrayList<>();
    try (Stream<Path> entries = Files.list(dir)) {
      for (Path entry : entries.sorted(Comparator.comparing(p -> p.getFileName().toString())).toList()) {
        String name = entry.getFileName().toString();
        if (name.startsWith(".")) {
          continue;
        }
        if (Files.isDirectory(entry)) {
          learners.add(new Learner(name, entry));
        } else {
          skipped.add(name);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (learners.isEmpty()) {
      throw new UsageError("--class " + dir + ": no learner folders in it (expected one folder per learner, e.g. "
          + dir + "/alice/02-blocking-calls/src/main/java)");
    }
    return new ClassRoster(dir, List.copyOf(learners), List.copyOf(skipped));
  }
}
