package io.looplab.grader.races;

import java.util.ArrayList;
import java.util.List;

/**
 * Distinct keys that any scheme sharing locks between keys by hashing puts on one lock: they have the same
 * {@code hashCode()} and the same length, and, after a non-empty prefix, the same first character. Lock striping ({@code "lock-" + key.hashCode() %
 * N}, Guava's {@code Striped}), a map keyed by the hash code, or one keyed by length or first letter all give them one
 * lock; a lock per key, found by {@code equals}, gives them one each.
 *
 * <p>They are built from the blocks "Aa" and "BB", which have the same hash code ({@code 'A' * 31 + 'a' == 'B' * 31 +
 * 'B'}); so does any two strings of equal length made of the same number of such blocks.
 */
public final class CollidingKeys {

  private CollidingKeys() {
  }

  /**
   * {@code count} distinct keys, {@code prefix} followed by "Aa"/"BB" blocks, all with the same hash code and length
   * (and first character, if {@code prefix} is not empty); at most 64.
   */
  public static List<String> withPrefix(String prefix, int count) {
    if (count < 1 || count > 64) {
      throw new IllegalArgumentException("between 1 and 64 keys: " + count);
    }
    int blocks = Math.max(1, 32 - Integer.numberOfLeadingZeros(count - 1));
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      StringBuilder key = new StringBuilder(prefix);
      for (int b = blocks - 1; b >= 0; b--) {
        key.append((i >> b & 1) == 0 ? "Aa" : "BB");
      }
      keys.add(key.toString());
    }
    return keys;
  }

  /** "N", the hash code they share, or a sentence saying that they do not (a misuse of this class). */
  public static String sharedHashCode(List<String> keys) {
    long distinct = keys.stream().mapToInt(String::hashCode).distinct().count();
    return distinct == 1 ? String.valueOf(keys.get(0).hashCode()) : "(not one hash code: " + keys + ")";
  }
}
