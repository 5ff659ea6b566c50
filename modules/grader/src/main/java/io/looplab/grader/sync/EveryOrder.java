package io.looplab.grader.sync;

import org.junit.jupiter.api.DynamicTest;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Runs one scenario once for every order in which a few pending completions can be released. Use it from a
 * {@code @TestFactory}: each order becomes its own test, named after the order, and the factory's points are
 * earned only when every order passes.
 */
public final class EveryOrder {

  private EveryOrder() {
  }

  /** Every permutation of {@code 0..n-1}, in lexicographic order. */
  public static List<int[]> permutations(int n) {
    if (n < 1 || n > 6) {
      throw new IllegalArgumentException("n must be between 1 and 6 (6! = 720 orders already): " + n);
    }
    List<int[]> result = new ArrayList<>();
    permute(new int[0], n, result);
    return result;
  }

  private static void permute(int[] prefix, int n, List<int[]> out) {
    if (prefix.length == n) {
      out.add(prefix);
      return;
    }
    for (int i = 0; i < n; i++) {
      final int candidate = i;
      if (Arrays.stream(prefix).noneMatch(p -> p == candidate)) {
        int[] next = Arrays.copyOf(prefix, prefix.length + 1);
        next[prefix.length] = i;
        permute(next, n, out);
      }
    }
  }

  /** One dynamic test per order of {@code n} releases; {@code scenario} receives the order to release in. */
  public static Stream<DynamicTest> of(int n, Consumer<int[]> scenario) {
    return permutations(n).stream().map(order -> DynamicTest.dynamicTest(
        "release order " + Arrays.stream(order).mapToObj(i -> "#" + (i + 1)).collect(Collectors.joining(" then ")),
        () -> scenario.accept(order)));
  }
}
