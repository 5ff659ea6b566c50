package io.looplab.manyloops;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.shareddata.Counter;
import io.vertx.core.shareddata.LocalMap;
import io.vertx.core.shareddata.SharedData;

import java.util.ArrayList;
import java.util.List;

/**
 * Page-view statistics, deployed with several instances: {@code new DeploymentOptions().setInstances(4)}. Every
 * instance runs on its own event-loop thread, and all of them count into the same statistics.
 *
 * <p>Its API is on the event bus:
 * <ul>
 *   <li>{@value #VIEWS}: a {@code JsonArray} of page paths, one entry per view, as the web front ships them in
 *       batches. Sent point to point, so each batch goes to one instance. The reply, the number of views in the
 *       batch, comes once every view of the batch is counted;</li>
 *   <li>{@value #SNAPSHOT}: any body. Replies {@code {"total": 3, "pages": {"/home": 2, "/about": 1}}}: the views
 *       counted by every instance together, whichever instance answers.</li>
 * </ul>
 *
 * <p>Concurrency contract: any number of instances may count at the same time, on different threads, and no view
 * is ever lost. A snapshot taken while batches are still being counted may be a little behind; one taken after
 * their replies includes them all.
 */
public class PageStatsVerticle extends VerticleBase {

  public static final String VIEWS = "pagestats.views";
  public static final String SNAPSHOT = "pagestats.snapshot";

  /** The names of the shared structures: every instance that asks for the same name gets the same one. */
  static final String TOTAL_VIEWS = "pagestats.total-views";
  static final String VIEWS_BY_PAGE = "pagestats.views-by-page";

  // FIX: the statistics live in Vert.x's shared data, not in plain static fields. These two fields are per
  // instance, but each one points at the single counter and the single map that all instances share, and both are
  // safe to update from several threads at once:
  // - a local Counter is an atomic long behind an asynchronous API (the same API as a cluster-wide counter);
  // - a LocalMap is a concurrent map: merge, compute, putIfAbsent and replaceIfPresent are each one atomic step.
  private Counter totalViews;
  private LocalMap<String, Long> viewsByPage;

  @Override
  public Future<?> start() {
    SharedData shared = vertx.sharedData();
    viewsByPage = shared.getLocalMap(VIEWS_BY_PAGE);
    // Only the first instance creates the counter; the others get the same one. Registering the consumers once
    // we hold it means no batch can arrive before there is something to count into.
    return shared.getLocalCounter(TOTAL_VIEWS).compose(counter -> {
      totalViews = counter;
      EventBus bus = vertx.eventBus();
      MessageConsumer<JsonArray> views = bus.consumer(VIEWS, this::countBatch);
      MessageConsumer<Object> snapshots = bus.consumer(SNAPSHOT, request -> snapshot()
          .onSuccess(request::reply)
          .onFailure(err -> request.fail(500, "snapshot failed: " + err)));
      return Future.all(views.completion(), snapshots.completion());
    });
  }

  /** Counts every view of one batch, on this instance's event loop, and replies once they are all counted. */
  private void countBatch(Message<JsonArray> batch) {
    JsonArray pages = batch.body();
    List<Future<?>> counted = new ArrayList<>(pages.size());
    for (int i = 0; i < pages.size(); i++) {
      counted.add(recordView(pages.getString(i)));
    }
    Future.all(counted).onComplete(
        done -> batch.reply(pages.size()),
        err -> batch.fail(500, "counting the batch failed: " + err));
  }

  /** Counts one view of {@code page}. The future completes once the view is counted. */
  private Future<?> recordView(String page) {
    // FIX: one atomic step each. merge() on a LocalMap reads the old count and writes the new one as a single
    // operation, so two event loops counting the same page can no longer both read 41 and both write 42.
    viewsByPage.merge(page, 1L, Long::sum);
    // FIX: the counter's future is already complete here (a local counter is an AtomicLong underneath), but
    // returning it keeps the code right for a counter that answers later, such as a clustered one.
    return totalViews.incrementAndGet();
  }

  /** The views counted by every instance together. */
  private Future<JsonObject> snapshot() {
    return totalViews.get().map(total -> {
      // A LocalMap hands out a copy of its entries to iterate over, so other loops can keep counting meanwhile.
      JsonObject pages = new JsonObject();
      viewsByPage.forEach(pages::put);
      return new JsonObject().put("total", total).put("pages", pages);
    });
  }
}
