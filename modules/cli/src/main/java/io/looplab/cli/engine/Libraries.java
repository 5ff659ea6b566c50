package io.looplab.cli.engine;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The libraries an exercise's code and tests compile and run against: the class path file Maven wrote for it. */
final class Libraries {

  private Libraries() {
  }

  static List<Path> of(Kit kit, Exercise exercise) throws IOException {
    Path file = exercise.classpathFile();
    if (!Files.exists(file)) {
      throw new UsageError("the kit is not built yet (" + kit.root().relativize(file) + " is missing): run ./lab "
          + "again, it builds what it needs, or run mvn -B verify once");
    }
    List<Path> paths = new ArrayList<>();
    for (String entry : Files.readString(file).trim().split(File.pathSeparator)) {
      if (!entry.isBlank()) {
        paths.add(Path.of(entry));
      }
    }
    return paths;
  }

  /** {@code first}, then {@code rest}: a class path. */
  static <T> List<T> concat(List<T> first, List<T> rest) {
    List<T> all = new ArrayList<>(first);
    all.addAll(rest);
    return all;
  }
}
