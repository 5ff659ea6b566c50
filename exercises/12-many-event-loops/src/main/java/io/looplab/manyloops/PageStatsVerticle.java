package io.looplab.manyloops;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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
 *
 * <p>It works when one instance counts at a time. With four instances counting at once, it loses views.
 */
public class PageStatsVerticle extends VerticleBase {

  public static final String VIEWS = "pagestats.views";
  public static final String SNAPSHOT = "pagestats.snapshot";

  // TODO: static, so that the four instances share one total and one map: that part is right. But each instance
  // runs on its own event-loop thread, so several threads update these at the same time, and neither a plain long
  // nor a HashMap is safe for that. Keep the statistics in something built to be shared between threads.
  private static long totalViews;
  private static final Map<String, Long> viewsByPage = new HashMap<>();

  @Override
  public Future<?> start() {
    // TODO: if your shared statistics need setting up (or looking up), this is the place, before the consumers.
    EventBus bus = vertx.eventBus();
    MessageConsumer<JsonArray> views = bus.consumer(VIEWS, this::countBatch);
    MessageConsumer<Object> snapshots = bus.consumer(SNAPSHOT, request -> snapshot()
        .onSuccess(request::reply)
        .onFailure(err -> request.fail(500, "snapshot failed: " + err)));
    return Future.all(views.completion(), snapshots.completion());
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
    // TODO: each line reads a count, adds one and writes it back: three steps. Another instance, on another
    // thread, can do the same steps in between, and then one of the two views is lost.
    totalViews++;
    viewsByPage.merge(page, 1L, Long::sum);
    return Future.succeededFuture();
  }

  /** The views counted by every instance together. */
  private Future<JsonObject> snapshot() {
    // TODO: read the statistics from wherever you keep them now.
    JsonObject pages = new JsonObject();
    viewsByPage.forEach(pages::put);
    return Future.succeededFuture(new JsonObject().put("total", totalViews).put("pages", pages));
  }
}
