package io.looplab.cli.engine;

import io.looplab.grader.internal.scoring.InFlightReport;
import io.looplab.report.ExerciseResult;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** The learner's latest result per exercise, so that `lab list` can show progress without grading again. */
public final class Results {

  private final Kit kit;

  public Results(Kit kit) {
    this.kit = kit;
  }

  private Path file(Exercise exercise) {
    return kit.workDir().resolve("results").resolve(exercise.id() + ".json");
  }

  /** Where the fingerprint of the sources graded last is kept, so that "edited since" means changed content. */
  private Path fingerprintFile(Exercise exercise) {
    return kit.workDir().resolve("results").resolve(exercise.id() + ".sources");
  }

  public void save(ExerciseResult report) {
    try {
      Exercise exercise = kit.find(report.id());
      Path f = file(exercise);
      Files.createDirectories(f.getParent());
      new InFlightReport(report, null, true).write(f);
      Files.writeString(fingerprintFile(exercise), SourceFingerprint.of(sources(exercise)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Drops the latest result of {@code exercise}: after a reset, its old score says nothing about the code. */
  public void forget(Exercise exercise) {
    try {
      Files.deleteIfExists(file(exercise));
      Files.deleteIfExists(fingerprintFile(exercise));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public Optional<ExerciseResult> latest(Exercise exercise) {
    return InFlightReport.read(file(exercise)).map(InFlightReport::report);
  }

  /**
   * The first exercise in course order, other than {@code exercise}, without full marks yet (see
   * {@link Kit#firstNotDoneBesides}).
   */
  public Optional<Exercise> nextNotDone(Exercise exercise) {
    return kit.firstNotDoneBesides(exercise, e -> latest(e).map(r -> !r.isComplete()).orElse(true));
  }

  /**
   * True when the learner's sources differ from the ones last graded. Content, not file times: a file saved again
   * unchanged, or put back exactly as it was, is not an edit.
   */
  public boolean changedSince(Exercise exercise) {
    try {
      Path fingerprint = fingerprintFile(exercise);
      if (!Files.exists(file(exercise)) || !Files.exists(fingerprint)) {
        return false;
      }
      return !Files.readString(fingerprint).strip().equals(SourceFingerprint.of(sources(exercise)));
    } catch (IOException | UncheckedIOException e) {
      return false;
    }
  }

  private static Path sources(Exercise exercise) {
    return exercise.dir().resolve("src/main");
  }
}
