package io.looplab.grader.races.scene;

import io.looplab.grader.sync.EveryOrder;
import io.looplab.grader.sync.Gate;
import org.junit.jupiter.api.DynamicTest;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The orders in which a race test answers the checks in flight: every release order of {@code n} callers, at each
 * {@link Pace}, and which pending checks a given order answers next.
 */
public final class ReleaseOrders {

  /** A scenario run for one release order at one pace. */
  public interface Race {
    void run(int[] order, Pace pace);
  }

  private ReleaseOrders() {
  }

  /**
   * One dynamic test per release order and pace: each order of {@code n} checks, answered in one go and one at a
   * time. Answered in one go, every reservation whose check is in flight has taken the step after its await before
   * any of them takes the next: two read-then-write sequences really overlap.
   */
  public static Stream<DynamicTest> racing(int n, Race race) {
    return Stream.of(Pace.TOGETHER, Pace.ONE_AT_A_TIME).flatMap(pace -> EveryOrder.permutations(n).stream()
        .map(order -> DynamicTest.dynamicTest("release order " + Arrays.stream(order).mapToObj(i -> "#" + (i + 1))
            .collect(Collectors.joining(" then ")) + ", " + pace.words(), () -> race.run(order, pace))));
  }

  /** The callers ordered by the priority that {@code order} gives them: order[0] first. */
  public static List<String> priority(List<String> callers, int[] order) {
    return Arrays.stream(order).mapToObj(callers::get).toList();
  }

  /**
   * The checks to answer next, out of those {@code pending}: the one whose caller comes first in {@code priority}
   * (a caller not in it comes last), and at {@link Pace#TOGETHER} all the others after it, in priority order.
   */
  public static <T> List<Gate<T>> nextToAnswer(List<Gate<T>> pending, List<String> priority, Pace pace) {
    List<Gate<T>> ranked = pending.stream().sorted(Comparator.comparingInt(gate -> {
      int rank = priority.indexOf(String.valueOf(gate.argument()));
      return rank < 0 ? Integer.MAX_VALUE : rank;
    })).toList();
    return pace == Pace.TOGETHER || ranked.isEmpty() ? ranked : ranked.subList(0, 1);
  }
}
