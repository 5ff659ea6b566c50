package io.looplab.manyloops;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Points;
import io.looplab.grader.testkit.WarmUp;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.looplab.grader.testkit.Checks.require;
import static io.looplab.manyloops.Limits.INSTANCES;
import static io.looplab.manyloops.Snapshots.pageCountOf;
import static io.looplab.manyloops.Snapshots.totalOf;
import static io.looplab.manyloops.Snapshots.totalsOf;

/**
 * The four instances count into one set of statistics, one batch at a time: no race plays a part here. Each test
 * works with page names of its own and compares snapshots taken before and after, so counts that live on in a
 * static field from an earlier test change nothing.
 */
@GradedVertxTest
@Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
@Order(1)
@DisplayName("12 Many event loops: the four instances share one set of statistics")
class SharedCountsTest {

  /** Nothing here is graded: see {@link WarmUp} and {@link EventBusWarmUp}. */
  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(EventBusWarmUp::steps);
  }

  @Test
  @Order(1)
  @Points(3)
  @DisplayName("one batch of views is counted exactly: the total and each page's count")
  void oneBatchIsCountedExactly(Vertx vertx) {
    Stats stats = Stats.deploy(vertx);
    JsonObject before = stats.snapshot();
    JsonArray batch = new JsonArray().add("/one/home").add("/one/about").add("/one/home").add("/one/pricing")
        .add("/one/home").add("/one/about");

    Object reply = stats.sendBatch(batch);
    require(Integer.valueOf(6).equals(reply) || Long.valueOf(6).equals(reply), "A batch of 6 views was answered "
        + "with " + reply + ", but the reply should be the number of views in the batch: 6.");

    JsonObject after = stats.snapshot();
    long total = totalOf(after, "after one batch") - totalOf(before, "before any batch");
    require(total == 6, "After one batch of 6 views, the snapshot's total went up by " + total + " instead of 6."
        + (total == 0 ? " The batch went to one instance and the snapshot may have come from another: if each "
            + "instance keeps its statistics in fields of its own, each has a copy of its own. They must be shared "
            + "by all instances." : ""));
    Map<String, Long> expected = new LinkedHashMap<>();
    expected.put("/one/home", 3L);
    expected.put("/one/about", 2L);
    expected.put("/one/pricing", 1L);
    expected.forEach((page, count) -> {
      long counted = pageCountOf(after, page);
      require(counted == count, "After one batch with " + count + " views of " + page + ", the snapshot counts "
          + counted + " for it. " + after.encode() + " is the whole snapshot.");
    });
  }

  @Test
  @Order(2)
  @Points(3)
  @DisplayName("batches handled by different instances add up in one total, whichever instance takes the snapshot")
  void snapshotAddsUpEveryInstance(Vertx vertx) {
    Stats stats = Stats.deploy(vertx);
    List<JsonObject> before = stats.snapshotFromEachInstance();
    // One batch at a time, each waited for: never two loops counting at once, so no race can play a part here.
    // The event bus hands point-to-point messages to the instances in turn, so each instance gets two batches.
    int batches = 2 * INSTANCES;
    for (int i = 0; i < batches; i++) {
      stats.sendBatch(new JsonArray().add("/sum/home").add("/sum/home").add("/sum/docs"));
    }
    List<JsonObject> after = stats.snapshotFromEachInstance();

    String threads = stats.log().threads();
    for (int i = 0; i < INSTANCES; i++) {
      long total = totalOf(after.get(i), "after " + batches + " batches") - totalOf(before.get(i), "before them");
      long home = pageCountOf(after.get(i), "/sum/home");
      require(total == 3L * batches && home == 2L * batches, "The event bus handed " + batches + " batches of 3 "
          + "views, one at a time, to the " + INSTANCES + " instances in turn, on " + threads + ". Then " + INSTANCES
          + " snapshots were asked for, one from each instance, and snapshot " + (i + 1) + " showed a total up by "
          + total + " and " + home + " views of /sum/home, where " + 3L * batches + " and " + 2L * batches
          + " were expected. The snapshots said " + totalsOf(before, after) + ". " + (total > 0 && total < 3L * batches
          ? "Each instance counted only the batches it handled itself: every instance is a separate object, so an "
            + "instance field gives each one a copy of its own. The statistics must be shared by all instances: "
            + "shared data (vertx.sharedData().getLocalCounter, getLocalMap), a static thread-safe structure, or "
            + "a single owner that every instance reports to."
          : "Count every view of every batch, and answer the snapshot from the statistics all instances share."));
    }
  }
}
