package io.looplab.cli.engine;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Finds the exercise a person meant: its whole id, its number ({@code 02} or {@code 2}), or a prefix that only one id
 * (or, failing that, only one id without its number) has. An unknown name gets the closest ids, as people mistype
 * rather than forget.
 */
final class ExerciseLookup {

  private static final int SUGGESTIONS = 3;

  private ExerciseLookup() {
  }

  static Exercise find(List<Exercise> exercises, String name) {
    String wanted = name.strip().toLowerCase(Locale.ROOT);
    if (wanted.isEmpty()) {
      throw new UsageError("no exercise named: give an id such as " + example(exercises) + " (see ./lab list)");
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
