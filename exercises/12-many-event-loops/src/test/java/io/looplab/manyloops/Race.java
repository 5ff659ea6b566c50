package io.looplab.manyloops;

import io.vertx.core.json.JsonObject;

import java.util.List;

import static io.looplab.manyloops.Limits.BATCH_SIZE;
import static io.looplab.manyloops.Limits.INSTANCES;
import static io.looplab.manyloops.Limits.PAGES;
import static io.looplab.manyloops.Snapshots.pageCountOf;
import static io.looplab.manyloops.Snapshots.totalOf;

/** What a race test sent, round by round, and the snapshots before and after. */
record Race(List<Round> rounds, List<String> pages, JsonObject before, JsonObject after, String threads) {

  long expectedTotal() {
    return (long) rounds.stream().mapToInt(Round::batches).sum() * BATCH_SIZE;
  }

  long expectedPerPage() {
    return expectedTotal() / PAGES;
  }

  long countedTotal() {
    return totalOf(after, "after the race") - totalOf(before, "before the race");
  }

  long countedFor(String page) {
    return pageCountOf(after, page) - pageCountOf(before, page);
  }

  boolean lostFromTotal() {
    return countedTotal() != expectedTotal();
  }

  boolean lostFromPages() {
    return pages.stream().anyMatch(page -> countedFor(page) != expectedPerPage());
  }

  long parallelMillis() {
    return rounds.stream().mapToLong(Round::parallelMicros).sum() / 1000;
  }

  String story() {
    return INSTANCES + " instances on " + threads + " counted " + expectedTotal() + " views at the same time, in "
        + rounds.size() + (rounds.size() == 1 ? " round" : " rounds") + " of " + rounds.get(0).batches()
        + " batches of " + BATCH_SIZE + ", and acknowledged every batch";
  }
}
