package io.looplab.cli.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Finds the exercise a person meant: its whole id, its number ({@code 02} or {@code 2}), or a prefix that only one id
 * (or, failing that, only one id without its number) has. An unknown name gets the closest ids, as people mistype
 * rather than forget. A path (what a shell's tab completion gives: {@code exercises/02-blocking-calls/}, a file inside
 * it, {@code .} from inside it, or the same under {@code solutions/}) means the exercise whose folder holds it.
 */
final class ExerciseLookup {

  private static final int SUGGESTIONS = 3;

  private ExerciseLookup() {
  }

  /** {@link #find(List, String, Path)} with a relative path read from the working directory. */
  static Exercise find(List<Exercise> exercises, String name) {
    return find(exercises, name, Path.of("").toAbsolutePath());
  }

  static Exercise find(List<Exercise> exercises, String name, Path workingDir) {
    String wanted = name.strip().toLowerCase(Locale.ROOT);
    if (wanted.isEmpty()) {
      throw new UsageError("no exercise named: give an id such as " + example(exercises) + " (see ./lab list)");
    }
    if (isPath(name.strip())) {
      return byFolder(exercises, name.strip(), workingDir);
    }
    for (Exercise e : exercises) {
      if (e.id().equals(wanted)) {
        return e;
      }
    }
    if (wanted.matches("\\d{1,3}")) {
      // A number is the exercise's number: 2 and 02 both mean 02-..., never "every id starting with 2".
      String number = String.format(Locale.ROOT, "%02d-", Integer.parseInt(wanted));
      for (Exercise e : exercises) {
        if (e.id().startsWith(number)) {
          return e;
        }
      }
    }
    List<Exercise> prefixed = exercises.stream().filter(e -> e.id().startsWith(wanted)).toList();
    if (prefixed.isEmpty()) {
      prefixed = exercises.stream().filter(e -> slug(e).startsWith(wanted)).toList();
    }
    if (prefixed.size() == 1) {
      return prefixed.get(0);
    }
    if (prefixed.size() > 1) {
      throw new UsageError("'" + name + "' could be " + ids(prefixed) + ": type more of the id");
    }
    int tolerance = Closeness.tolerance(wanted);
    List<Exercise> close = exercises.stream().filter(e -> distance(wanted, e) <= tolerance)
        .sorted(Comparator.comparingInt((Exercise e) -> distance(wanted, e)).thenComparing(Exercise::id))
        .limit(SUGGESTIONS).toList();
    String range = exercises.isEmpty() ? "none" : exercises.get(0).id().substring(0, 2) + " to "
        + exercises.get(exercises.size() - 1).id().substring(0, 2);
    throw new UsageError("unknown exercise '" + name + "'" + (close.isEmpty() ? "; the kit's exercises are " + range
        : "; did you mean " + ids(close) + "?") + " (./lab list shows them all)");
  }

  private static boolean isPath(String name) {
    return name.contains("/") || name.contains(java.io.File.separator) || name.equals(".") || name.equals("..");
  }

  /**
   * The exercise whose folder, under exercises/ or solutions/, is {@code path} or holds it. A folder of the same name
   * outside this kit is not taken for it: check grades the kit's own copy, and saying so beats grading another.
   */
  private static Exercise byFolder(List<Exercise> exercises, String name, Path workingDir) {
    Path path;
    try {
      path = real(workingDir.resolve(name));
    } catch (InvalidPathException e) {
      throw new UsageError("'" + name + "' is not a path this system can read: give an exercise's id, such as "
          + example(exercises) + " (./lab list shows them)");
    }
    for (Exercise e : exercises) {
      Path own = real(e.dir());
      Path solution = real(own.getParent().resolveSibling("solutions").resolve(e.id()));
      if (path.startsWith(own) || path.startsWith(solution)) {
        return e;
      }
    }
    for (Path folder = path; folder != null; folder = folder.getParent()) {
      Path named = folder.getFileName();
      if (named != null && exercises.stream().anyMatch(e -> e.id().equals(named.toString()))) {
        Exercise e = exercises.stream().filter(x -> x.id().equals(named.toString())).findFirst().orElseThrow();
        throw new UsageError("'" + name + "' is outside this kit (" + real(e.dir()).getParent().getParent()
            + "), whose own " + e.id() + " is exercises/" + e.id() + " (or just " + e.id().substring(0, 2)
            + "); ./lab grade --submission DIR grades another copy");
      }
    }
    throw new UsageError("'" + name + "' is not an exercise's folder or inside one: give a folder such as exercises/"
        + (exercises.isEmpty() ? "02-blocking-calls" : exercises.get(0).id()) + ", or its id (./lab list shows them)");
  }

  /** The path without . and .., and through its links where it exists (a shell's $PWD may go through a link). */
  private static Path real(Path path) {
    Path normal = path.toAbsolutePath().normalize();
    try {
      return Files.exists(normal) ? normal.toRealPath() : normal;
    } catch (IOException e) {
      return normal;
    }
  }

  /** The smaller edit distance to the whole id or to its slug, so "lost-updat" finds 09-lost-update. */
  private static int distance(String wanted, Exercise e) {
    return Math.min(Closeness.distance(wanted, e.id()), Closeness.distance(wanted, slug(e)));
  }

  /** The id without its number: "lost-update" for 09-lost-update. */
  private static String slug(Exercise e) {
    String id = e.id();
    return id.length() > 3 && id.charAt(2) == '-' ? id.substring(3) : id;
  }

  private static String ids(List<Exercise> list) {
    List<String> ids = list.stream().map(Exercise::id).toList();
    if (ids.size() == 1) {
      return ids.get(0);
    }
    return String.join(", ", ids.subList(0, ids.size() - 1)) + " or " + ids.get(ids.size() - 1);
  }

  private static String example(List<Exercise> exercises) {
    return exercises.isEmpty() ? "02-blocking-calls" : exercises.get(0).id().substring(0, 2) + " or "
        + exercises.get(0).id();
  }
}
