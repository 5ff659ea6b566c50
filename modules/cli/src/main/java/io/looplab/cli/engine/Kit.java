package io.looplab.cli.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Stream;

/** The kit on disk: its root folder, its exercises in course order, and where the CLI keeps its work files. */
public final class Kit {

  private final Path root;
  private final Path workDir;
  private final List<Exercise> exercises;

  private Kit(Path root, Path workDir) {
    this.root = root;
    this.workDir = workDir;
    try (Stream<Path> dirs = Files.list(root.resolve("exercises"))) {
      this.exercises = dirs.filter(d -> Files.isRegularFile(d.resolve("exercise.json")))
          .sorted().map(Exercise::load).toList();
    } catch (IOException e) {
      throw new UsageError("cannot list " + root.resolve("exercises") + ": " + e.getMessage());
    }
  }

  /** The kit at {@code looplab.home} (set by the lab script), or the working directory. */
  public static Kit locate() {
    Path root = Path.of(io.looplab.grader.internal.settings.Settings.HOME.value()).toAbsolutePath().normalize();
    if (!Files.isDirectory(root.resolve("exercises"))) {
      throw new UsageError("no exercises/ folder in " + root + ": run lab from the kit's root folder");
    }
    return new Kit(root, root.resolve("target/lab"));
  }

  public static Kit at(Path root) {
    Path normal = root.toAbsolutePath().normalize();
    return new Kit(normal, normal.resolve("target/lab"));
  }

  /** The same kit, keeping its work files elsewhere: the self-test's gradings leave nothing in the kit's target/lab. */
  public Kit withWorkDir(Path dir) {
    return new Kit(root, dir.toAbsolutePath().normalize());
  }

  public Path root() {
    return root;
  }

  public List<Exercise> exercises() {
    return exercises;
  }

  /** The exercise named by its id, its number ("02") or a prefix of its id that no other exercise has. */
  public Exercise find(String name) {
    return ExerciseLookup.find(exercises, name);
  }

  /**
   * The first exercise in course order, other than {@code exercise}, for which {@code notDone} holds and that this
   * machine can grade (see {@link Exercise#runsHere()}): after 05, with 02 to 04 not done, that is 02, as
   * {@code lab list} says, not 06.
   */
  public Optional<Exercise> firstNotDoneBesides(Exercise exercise, Predicate<Exercise> notDone) {
    return exercises.stream().filter(e -> !e.equals(exercise) && e.runsHere() && notDone.test(e)).findFirst();
  }

  /** Where compiled classes, reports and logs go: inside the kit, ignored by git. */
  public Path workDir() {
    return workDir;
  }

  /** Whether the kit has its reference solutions: a learner's handout ({@code lab handout}) has none. */
  public boolean hasSolutions() {
    return Files.isDirectory(root.resolve("solutions"));
  }

  public Path solutionSources(Exercise exercise) {
    return root.resolve("solutions").resolve(exercise.id()).resolve("src/main/java");
  }
}
