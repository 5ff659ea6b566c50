package io.looplab.cli.engine;

import io.looplab.grader.internal.scoring.ExerciseReport;
import io.looplab.grader.internal.scoring.InFlightReport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;

/** The learner's latest result per exercise, so that `lab list` can show progress without grading again. */
public final class Results {

  private final Kit kit;

  public Results(Kit kit) {
    this.kit = kit;
  }

  private Path file(Exercise exercise) {
    return kit.workDir().resolve("results").resolve(exercise.id() + ".json");
  }

  public void save(ExerciseReport report) {
    try {
      Path f = file(kit.find(report.id()));
      Files.createDirectories(f.getParent());
      new InFlightReport(report, null, true).write(f);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public Optional<ExerciseReport> latest(Exercise exercise) {
    return InFlightReport.read(file(exercise)).map(InFlightReport::report);
  }

  /** True when the learner edited the exercise after it was last graded. */
  public boolean changedSince(Exercise exercise) {
    try {
      Path f = file(exercise);
      Path sources = exercise.dir().resolve("src/main/java");
      if (!Files.exists(f) || !Files.isDirectory(sources)) {
        return false;
      }
      long graded = Files.getLastModifiedTime(f).toMillis();
      try (Stream<Path> walk = Files.walk(sources)) {
        return walk.anyMatch(p -> p.toFile().lastModified() > graded);
      }
    } catch (IOException e) {
      return false;
    }
  }
}
