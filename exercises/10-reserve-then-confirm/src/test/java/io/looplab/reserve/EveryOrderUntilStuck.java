package io.looplab.reserve;

import io.looplab.grader.sync.EveryOrder;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;

import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * One dynamic test per order of some items, from {@link EveryOrder#permutations}. Once an order finds a booking
 * stuck behind a pending payment ({@link BookingStuck}), the later orders are not run: each would wait out the same
 * second to learn the same thing, and the factory has lost its points already.
 */
final class EveryOrderUntilStuck {

  /** Set when an order of this test factory found a booking stuck behind a pending payment. */
  private String stuck;

  private EveryOrderUntilStuck() {
  }

  /** The dynamic tests of one factory: {@code scenario} run with each order of {@code items}, named by {@code name}. */
  static <T> Stream<DynamicTest> everyOrder(List<T> items, Function<List<T>, String> name,
                                            Consumer<List<T>> scenario) {
    EveryOrderUntilStuck factory = new EveryOrderUntilStuck();
    return EveryOrder.permutations(items.size()).stream().map(permutation -> {
      List<T> order = Arrays.stream(permutation).mapToObj(items::get).toList();
      return DynamicTest.dynamicTest(name.apply(order), () -> factory.run(scenario, order));
    });
  }

  private <T> void run(Consumer<List<T>> scenario, List<T> order) {
    Assumptions.assumeTrue(stuck == null, () -> "Not run: an earlier order already found this: " + stuck);
    try {
      scenario.accept(order);
    } catch (BookingStuck e) {
      stuck = e.getMessage();
      throw e;
    }
  }
}
