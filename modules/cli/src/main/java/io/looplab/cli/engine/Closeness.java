package io.looplab.cli.engine;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * The kit's one rule for "did you mean": a name a few edits away from the one typed (at most a third of its length,
 * and at least one), as people mistype. Exercise ids, commands and options all use it.
 */
public final class Closeness {

  private Closeness() {
  }

  /** Whether {@code candidate} is close enough to {@code typed} to be suggested. */
  public static boolean isClose(String typed, String candidate) {
    return distance(typed, candidate) <= tolerance(typed);
  }

  /** The candidates close to {@code typed}, closest first, at most {@code limit}. */
  public static List<String> closest(String typed, Collection<String> candidates, int limit) {
    return candidates.stream().filter(c -> isClose(typed, c))
        .sorted(Comparator.comparingInt((String c) -> distance(typed, c)).thenComparing(c -> c))
        .limit(limit).toList();
  }

  /** A typo is a few edits away; anything further is not a suggestion but noise. */
  static int tolerance(String typed) {
    return Math.max(1, typed.length() / 3);
  }

  /**
   * The edit distance between two strings: insertions, deletions, substitutions, and two neighbours swapped
   * ("lsit" is one edit from "list"), each one edit.
   */
  static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(d[i - 1][j - 1] + cost, Math.min(d[i - 1][j], d[i][j - 1]) + 1);
        if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }
}
