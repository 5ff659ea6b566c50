package io.looplab.cli.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The graded tests that an engine compiled last, per exercise, kept to be used again: a save that changes only
 * method bodies (the usual edit) leaves the classes' API as it was, and the tests compiled against it are then the
 * same class files, so the grading copies them instead of compiling them again (a few milliseconds instead of 150
 * to 450). What must match: the {@link ApiFingerprint} of the code, the tests' sources, and the class path.
 */
final class CompiledTests {

  private record Kept(String key, Path dir) {
  }

  private final Path root;
  private final Map<String, Kept> byExercise = new HashMap<>();
  private Path folder;

  /** Keeps compiled tests in a folder of its own under {@code root} (an engine each: several may run at once). */
  CompiledTests(Path root) {
    this.root = root;
  }

  /** What the tests compiled against {@code api}, from {@code tests}, with {@code libraries} depend on. */
  static String key(String api, Path tests, List<Path> libraries) {
    return api + "\n" + SourceFingerprint.of(tests) + "\n" + libraries;
  }

  /** Copies the tests kept for {@code key} into the empty folder {@code testClasses}; false when none are kept. */
  synchronized boolean copyInto(Exercise exercise, String key, Path testClasses) throws IOException {
    Kept kept = byExercise.get(exercise.id());
    if (kept == null || !kept.key().equals(key) || !Files.isDirectory(kept.dir())) {
      return false;
    }
    FileTrees.copy(kept.dir(), testClasses);
    return true;
  }

  /** Keeps a copy of {@code testClasses}, just compiled for {@code key}. */
  synchronized void keep(Exercise exercise, String key, Path testClasses) throws IOException {
    if (folder == null) {
      folder = Files.createTempDirectory(Files.createDirectories(root), "tests-");
    }
    Path dir = folder.resolve(exercise.id());
    byExercise.remove(exercise.id());
    FileTrees.replaceContents(dir, testClasses);
    byExercise.put(exercise.id(), new Kept(key, dir));
  }

  /** Deletes what was kept. */
  synchronized void close() {
    byExercise.clear();
    if (folder != null) {
      try {
        FileTrees.delete(folder);
      } catch (IOException e) {
        // a folder under the kit's work folder, emptied again by the next build
      }
    }
  }
}
