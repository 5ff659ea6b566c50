package io.looplab.cli.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The kit on disk: its root folder, its exercises in course order, and where the CLI keeps its work files. */
public final class Kit {

  private final Path root;
  private final List<Exercise> exercises;

  private Kit(Path root) {
    this.root = root;
    try (Stream<Path> dirs = Files.list(root.resolve("exercises"))) {
      this.exercises = dirs.filter(d -> Files.isRegularFile(d.resolve("exercise.json")))
          .sorted().map(Exercise::load).toList();
    } catch (IOException e) {
      throw new UsageError("cannot list " + root.resolve("exercises") + ": " + e.getMessage());
    }
  }

  /** The kit at {@code looplab.home} (set by the lab script), or the working directory. */
  public static Kit locate() {
    Path root = Path.of(System.getProperty("looplab.home", ".")).toAbsolutePath().normalize();
    if (!Files.isDirectory(root.resolve("exercises"))) {
      throw new UsageError("no exercises/ folder in " + root + ": run lab from the kit's root folder");
    }
    return new Kit(root);
  }

  public static Kit at(Path root) {
    return new Kit(root.toAbsolutePath().normalize());
  }

  public Path root() {
    return root;
  }

  public List<Exercise> exercises() {
    return exercises;
  }

  public Exercise find(String id) {
    return exercises.stream().filter(e -> e.id().equals(id)).findFirst().orElseThrow(() -> new UsageError(
        "unknown exercise '" + id + "'; known: " + exercises.stream().map(Exercise::id).collect(Collectors.joining(", "))));
  }

  /** Where compiled classes, reports and logs go: inside the kit, ignored by git. */
  public Path workDir() {
    return root.resolve("target/lab");
  }

  public Path solutionSources(Exercise exercise) {
    return root.resolve("solutions").resolve(exercise.id()).resolve("src/main/java");
  }
}
