package io.looplab.manyloops;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Points;
import io.looplab.grader.races.StateFields;
import io.looplab.grader.races.StateFields.StateField;
import io.looplab.grader.testkit.WarmUp;
import io.vertx.core.Vertx;
import io.vertx.core.shareddata.Counter;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static io.looplab.grader.testkit.Checks.require;
import static io.looplab.manyloops.Limits.INSTANCES;
import static io.looplab.manyloops.Limits.VIEWS_PER_INSTANCE;

/**
 * With the four instances on four event-loop threads, the race tests hold the four loops, queue hundreds of batches,
 * and let the loops go at once, round after round, until either a view is lost or the loops have been seen counting
 * side by side long enough that a racy count would have lost some (see {@link Limits#MIN_PARALLEL_MILLIS}). A
 * thread-safe count never loses one. So the verdict rests on final counts alone, never on which tool the solution
 * used: a local Counter, a LocalMap, atomics or a single owner all pass. The guard fails any test whose code blocks
 * or stalls an event loop.
 */
@GradedVertxTest
@Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
@Order(2)
@DisplayName("12 Many event loops: four loops counting at once lose no view from the total")
class TotalRaceTest {

  /** Nothing here is graded: see {@link WarmUp} and {@link EventBusWarmUp}. */
  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(EventBusWarmUp::steps);
  }

  @Test
  @Order(3)
  @Points(6)
  @DisplayName("four instances counting at once, " + INSTANCES * VIEWS_PER_INSTANCE + " views a round, "
      + "lose no view from the total")
  void totalLosesNoViewUnderFourLoops(Vertx vertx) {
    Stats stats = Stats.deploy(vertx);
    Race race = stats.race("/total", Race::lostFromTotal);
    long lost = race.expectedTotal() - race.countedTotal();
    require(lost == 0, race.story() + ", but the total went up by " + race.countedTotal() + ": " + lost
        + " views were lost. " + whyTotalLost(stats.stateFields())
        + (lost * 2 > race.expectedTotal() ? " Losing most of the views is also what per-instance copies of the "
            + "statistics do: see the test of batches handled by different instances." : ""));
  }

  /**
   * Why views went missing from the total, as far as the fields of PageStatsVerticle show: an atomic that lost views
   * was used in more than one call; a plain number was updated with ++. Otherwise, the usual causes.
   */
  private static String whyTotalLost(List<StateField> fields) {
    Optional<StateField> atomic = StateFields.holding(fields, AtomicLong.class, AtomicInteger.class, Counter.class);
    Optional<StateField> number = fields.stream().filter(StateField::isPrimitiveNumber).findFirst();
    String fix = "Count with one atomic step: a local Counter (vertx.sharedData().getLocalCounter), an AtomicLong "
        + "or LongAdder, or a single owner of the count.";
    if (atomic.isPresent() && number.isEmpty()) {
      boolean counter = atomic.get().holds(Counter.class);
      return "The total is kept in " + atomic.get().describe() + ", which is atomic one call at a time, so it was "
          + "updated in more than one call: " + (counter ? "a get() followed by a compareAndSet() whose false "
          + "answer is not retried" : "a get() followed by a set(), or a compareAndSet() whose false answer is not "
          + "retried") + ". Between the two calls another event loop counts, and one of the two counts is "
          + "overwritten or dropped. Update it with one call, " + (counter ? "incrementAndGet() or addAndGet(n)"
          : "incrementAndGet() or addAndGet(n)") + ", or retry compareAndSet() in a loop until it returns true.";
    }
    if (number.isPresent()) {
      StateField field = number.get();
      return field.name() + "++ is three steps: read the count, add one, write it back (the total is kept in "
          + field.describe() + "). Two event loops can run those steps at the same moment on two cores, or one "
          + "loop can be paused between its read and its write while another counts: either way both write a "
          + "count based on the same old value, and views vanish. static shares the field between instances but "
          + "makes nothing atomic; volatile makes each read see the latest write, yet the read and the write are "
          + "still two steps; synchronized on an instance locks each instance against itself alone. " + fix;
    }
    return "Each lost view is a read and a write of the count with another event loop's update in between. The "
        + "usual causes: a count updated as read, add, write (count++, or get() then set()); a compareAndSet() "
        + "whose false answer is not retried; a lock that each instance takes for itself (synchronized (this)). "
        + fix;
  }
}
