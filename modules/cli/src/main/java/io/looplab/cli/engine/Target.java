package io.looplab.cli.engine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Whose code is graded: the learner's exercises/, the reference solutions/, or a submission folder. Only a
 * target's {@code src/main} is ever taken; the graded tests always come from the kit itself.
 */
public final class Target {

  private final String label;
  private final String key;
  private final Path exercisesRoot;

  private Target(String label, String key, Path exercisesRoot) {
    this.label = label;
    this.key = key;
    this.exercisesRoot = exercisesRoot;
  }

  public static Target exercises(Kit kit) {
    return new Target("exercises", "exercises", kit.root().resolve("exercises"));
  }

  public static Target solutions(Kit kit) {
    return new Target("solutions", "solutions", kit.root().resolve("solutions"));
  }

  /**
   * A learner's copy: a folder with the layout of exercises/ ({@code NN-slug/src/main/java}), or a whole kit
   * (then its exercises/ folder is used). Anything else is refused before grading starts.
   */
  public static Target submission(Kit kit, Path dir) {
    Path given = dir.toAbsolutePath().normalize();
    if (!Files.exists(given)) {
      throw new UsageError("--submission " + dir + ": no such folder");
    }
    if (!Files.isDirectory(given)) {
      throw new UsageError("--submission " + dir + ": not a folder (expected the layout of exercises/, e.g. "
          + dir + "/02-blocking-calls/src/main/java)");
    }
    Path root = Files.isDirectory(given.resolve("exercises")) ? given.resolve("exercises") : given;
    boolean any = kit.exercises().stream().anyMatch(e -> Files.isDirectory(root.resolve(e.id())));
    if (!any) {
      String example = kit.exercises().isEmpty() ? "NN-slug" : kit.exercises().get(0).id();
      throw new UsageError("--submission " + dir + ": no exercise folder in it (expected folders such as "
          + example + "/src/main/java, the layout of exercises/)");
    }
    return new Target(dir.toString(), "submission-" + Integer.toHexString(given.toString().hashCode()), root);
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

  /** The main sources for {@code exercise}, or empty when the target lacks that exercise. */
  public Optional<Path> mainSources(Exercise exercise) {
    Path sources = exercisesRoot.resolve(exercise.id()).resolve("src/main/java");
    return Files.isDirectory(sources) ? Optional.of(sources) : Optional.empty();
  }

  /** The resources beside those sources, if any. */
  public Path mainResources(Exercise exercise) {
    return exercisesRoot.resolve(exercise.id()).resolve("src/main/resources");
  }
}
