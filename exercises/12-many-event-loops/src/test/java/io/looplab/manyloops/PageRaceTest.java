package io.looplab.manyloops;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Points;
import io.looplab.grader.races.StateFields;
import io.looplab.grader.races.StateFields.StateField;
import io.looplab.grader.testkit.WarmUp;
import io.vertx.core.Vertx;
import io.vertx.core.shareddata.LocalMap;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;

import static io.looplab.grader.testkit.Checks.require;
import static io.looplab.manyloops.Limits.INSTANCES;
import static io.looplab.manyloops.Limits.PAGES;
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
@Order(3)
@DisplayName("12 Many event loops: four loops counting at once lose no view from any page")
class PageRaceTest {

  /** Nothing here is graded: see {@link WarmUp} and {@link EventBusWarmUp}. */
  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(EventBusWarmUp::steps);
  }

  @Test
  @Order(4)
  @Points(6)
  @DisplayName("four instances counting at once, " + INSTANCES * VIEWS_PER_INSTANCE + " views a round, "
      + "lose no view from any page")
  void pageCountsLoseNoViewUnderFourLoops(Vertx vertx) {
    Stats stats = Stats.deploy(vertx);
    Race race = stats.race("/pages", Race::lostFromPages);
    Map<String, Long> lostByPage = new LinkedHashMap<>();
    for (String page : race.pages()) {
      long lost = race.expectedPerPage() - race.countedFor(page);
      if (lost != 0) {
        lostByPage.put(page, lost);
      }
    }
    long lost = lostByPage.values().stream().mapToLong(Long::longValue).sum();
    require(lostByPage.isEmpty(), race.story() + ", " + race.expectedPerPage() + " views of each of " + PAGES
        + " pages, but the per-page counts lost " + lost + " views: " + lostByPage + " (page = views lost)"
        + (race.countedTotal() == race.expectedTotal() ? ", while the total was right" : "") + ". Each count was "
        + "read, added to and written back as separate steps, and another event loop got in between. "
        + whyPagesLost(stats.stateFields())
        + (lost * 2 > race.expectedTotal() ? " Losing most of the views is also what per-instance copies of the "
            + "statistics do: see the test of batches handled by different instances." : ""));
  }

  /** Why page counts went missing, as far as the fields of PageStatsVerticle show; otherwise the usual causes. */
  private static String whyPagesLost(List<StateField> fields) {
    Optional<StateField> plainMap = fields.stream().filter(f -> f.holds(Map.class) && !f.holds(ConcurrentMap.class)
        && !f.holds(LocalMap.class)).findFirst();
    Optional<StateField> safeMap = StateFields.holding(fields, ConcurrentMap.class, LocalMap.class);
    String fix = " Keep the counts in a map whose single calls are atomic, a LocalMap "
        + "(vertx.sharedData().getLocalMap) or a ConcurrentHashMap, and update each count in one call: "
        + "merge(page, 1L, Long::sum) or compute(page, ...).";
    String identity = " A lock chosen by the page's String (synchronized (page)) does not help either: requests "
        + "arrive decoded, each with String objects of its own, so two views of one page lock two different "
        + "monitors; lock one shared object, or better, use a thread-safe map.";
    if (plainMap.isPresent()) {
      return "The counts are kept in " + plainMap.get().describe() + ". A HashMap is not safe for several threads at "
          + "all: its merge, compute and put are such steps too." + identity + fix;
    }
    if (safeMap.isPresent()) {
      return "The counts are kept in " + safeMap.get().describe() + ", whose single calls are atomic, so a count "
          + "was updated in more than one call. A get followed by a put is two steps on any map, even a "
          + "thread-safe one (so is a replace whose false answer is not retried). Update each count in one call: "
          + "merge(page, 1L, Long::sum) or compute(page, ...).";
    }
    return "The usual causes: a HashMap shared by several threads (its merge, compute and put are such steps too); "
        + "a get followed by a put, which is two steps on any map, even a thread-safe one; a lock that is not "
        + "shared by every instance (synchronized (this), or synchronized (page): requests arrive decoded, each "
        + "with String objects of its own)." + fix;
  }
}
