package io.looplab.cli.engine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Function;

/**
 * Whose code is graded: the learner's exercises/, the reference solutions/, the kit's original stubs, or a
 * submission folder. Only a target's {@code src/main} is ever taken; the graded tests always come from the kit's
 * originals (see {@link Originals}).
 */
public final class Target {

  private final String label;
  private final String key;
  /** An exercise's {@code src/main} folder in this target, or empty when the target lacks that exercise. */
  private final Function<Exercise, Optional<Path>> mainDir;

  private Target(String label, String key, Function<Exercise, Optional<Path>> mainDir) {
    this.label = label;
    this.key = key;
    this.mainDir = mainDir;
  }

  public static Target exercises(Kit kit) {
    return new Target("exercises", "exercises", inFolder(kit.root().resolve("exercises")));
  }

  public static Target solutions(Kit kit) {
    if (!kit.hasSolutions()) {
      throw new UsageError("this kit has no solutions/ folder (it is a learner's handout): nothing to grade with "
          + "--solutions");
    }
    return new Target("solutions", "solutions", inFolder(kit.root().resolve("solutions")));
  }

  /** The stubs as the kit shipped them, whatever the learner has done to exercises/ since: what the self-test fails. */
  public static Target originalStubs(Kit kit) {
    Originals originals = Originals.of(kit);
    return new Target("original stubs", "stubs", e -> Optional.of(originals.of(e, Originals.Part.STUB).dir()));
  }

  /**
   * A learner's copy: a folder with the layout of exercises/ ({@code NN-slug/src/main/java}), or a whole kit
   * (then its exercises/ folder is used). Anything else is refused before grading starts.
   */
  public static Target submission(Kit kit, Path dir) {
    Optional<String> problem = problemWith(kit, dir);
    if (problem.isPresent()) {
      throw new UsageError("--submission " + dir + ": " + problem.get());
    }
    Path given = dir.toAbsolutePath().normalize();
    return new Target(dir.toString(), "submission-" + Integer.toHexString(given.toString().hashCode()),
        inFolder(exercisesIn(given)));
  }

  /** A submission's folder of exercises: its exercises/ when it is a whole kit, else the folder itself. */
  private static Path exercisesIn(Path given) {
    return Files.isDirectory(given.resolve("exercises")) ? given.resolve("exercises") : given;
  }

  /** Why {@code dir} cannot be graded as a submission ("no such folder", ...), or empty when it can. */
  public static Optional<String> problemWith(Kit kit, Path dir) {
    Path given = dir.toAbsolutePath().normalize();
    if (!Files.exists(given)) {
      return Optional.of("no such folder");
    }
    if (!Files.isDirectory(given)) {
      return Optional.of("not a folder (expected the layout of exercises/, e.g. " + dir
          + "/02-blocking-calls/src/main/java)");
    }
    Path root = exercisesIn(given);
    if (kit.exercises().stream().noneMatch(e -> Files.isDirectory(root.resolve(e.id())))) {
      String example = kit.exercises().isEmpty() ? "NN-slug" : kit.exercises().get(0).id();
      return Optional.of("no exercise folder in it (expected folders such as " + example
          + "/src/main/java, the layout of exercises/)");
    }
    return Optional.empty();
  }

  private static Function<Exercise, Optional<Path>> inFolder(Path exercisesRoot) {
    return e -> {
      Path main = exercisesRoot.resolve(e.id()).resolve("src/main");
      return Files.isDirectory(main.resolve("java")) ? Optional.of(main) : Optional.empty();
    };
  }

  /** What the report calls this target. */
  public String label() {
    return label;
  }

  /** A file-name-safe name for this target's work folder. */
  public String key() {
    return key;
  }

  public boolean isLearnersOwnCopy() {
    return "exercises".equals(key);
  }

  /** The {@code src/main} folder (with {@code java/} and maybe {@code resources/}) for {@code exercise}, if any. */
  public Optional<Path> mainDir(Exercise exercise) {
    return mainDir.apply(exercise);
  }
}
