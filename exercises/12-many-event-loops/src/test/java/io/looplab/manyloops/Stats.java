package io.looplab.manyloops;

import io.looplab.grader.races.Fresh;
import io.looplab.grader.races.StateFields;
import io.looplab.grader.races.StateFields.StateField;
import io.looplab.grader.testkit.Await;
import io.looplab.grader.testkit.OnContext;
import io.vertx.core.Context;
import io.vertx.core.Deployable;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.opentest4j.AssertionFailedError;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;

import static io.looplab.manyloops.Limits.BATCH_SIZE;
import static io.looplab.manyloops.Limits.INSTANCES;
import static io.looplab.manyloops.Limits.MAX_ROUNDS;
import static io.looplab.manyloops.Limits.MIN_PARALLEL_MILLIS;
import static io.looplab.manyloops.Limits.PAGES;
import static io.looplab.manyloops.Limits.RACE_BUDGET_SECONDS;
import static io.looplab.manyloops.Limits.RACE_WAIT;
import static io.looplab.manyloops.Limits.RACE_WAIT_SECONDS;
import static io.looplab.manyloops.Limits.VIEWS_PER_INSTANCE;
import static io.looplab.manyloops.Limits.WAIT;
import static io.looplab.manyloops.Limits.WAIT_SECONDS;
import static io.looplab.manyloops.Limits.WARM_UP_BATCHES;
import static io.looplab.manyloops.Limits.WARM_UP_BATCH_SIZE;

/** The deployed instances, seen from the event bus, as the rest of an application sees them. */
record Stats(Vertx vertx, String deploymentId, List<Context> contexts, BatchLog log,
             List<PageStatsVerticle> instances) {

  /**
   * Deploys {@value Limits#INSTANCES} instances, as {@code deployVerticle(PageStatsVerticle.class, options)} would, but
   * through a thin wrapper of the test's own that notes each instance's context, so that a race test can hold the
   * instances' event loops while it queues the batches. The wrapper only passes deploy and undeploy on.
   */
  static Stats deploy(Vertx vertx) {
    BatchLog log = new BatchLog();
    vertx.eventBus().addInboundInterceptor(log::intercept);
    List<Context> contexts = new CopyOnWriteArrayList<>();
    List<PageStatsVerticle> instances = new CopyOnWriteArrayList<>();
    Supplier<Deployable> instance = () -> {
      PageStatsVerticle verticle = new PageStatsVerticle();
      instances.add(verticle);
      return new Deployable() {
        @Override
        public Future<?> deploy(Context context) throws Exception {
          contexts.add(context);
          return verticle.deploy(context);
        }

        @Override
        public Future<?> undeploy(Context context) throws Exception {
          return verticle.undeploy(context);
        }
      };
    };
    String id = Await.result(vertx.deployVerticle(instance, new DeploymentOptions().setInstances(INSTANCES)),
        WAIT, "Deploying " + INSTANCES + " instances of PageStatsVerticle did not finish within "
            + WAIT_SECONDS + " s: start() must complete its future once the consumers are registered.");
    return new Stats(vertx, id, oneContextPerThread(contexts), log, List.copyOf(instances));
  }

  /**
   * One context per event-loop thread among {@code contexts}. Usually each instance has a loop of its own, but when
   * the code deploys a verticle of its own while the instances start, two instances can share a loop; holding that
   * loop twice would wait for ever.
   */
  private static List<Context> oneContextPerThread(List<Context> contexts) {
    Map<String, Context> byThread = new LinkedHashMap<>();
    for (Context context : contexts) {
      byThread.putIfAbsent(OnContext.call(context, () -> Thread.currentThread().getName(), WAIT), context);
    }
    return List.copyOf(byThread.values());
  }

  /** Where the instances keep their statistics: for a failure message, never for the verdict. */
  List<StateField> stateFields() {
    return StateFields.of(PageStatsVerticle.class, instances);
  }

  Object sendBatch(JsonArray pages) {
    return Await.result(vertx.eventBus().request(PageStatsVerticle.VIEWS, Fresh.copyOf(pages)), WAIT, "A batch of "
        + pages.size() + " views sent to " + PageStatsVerticle.VIEWS + " got no reply within " + WAIT_SECONDS
        + " s. Reply to each batch once its views are counted.").body();
  }

  JsonObject snapshot() {
    Object body = Await.result(vertx.eventBus().request(PageStatsVerticle.SNAPSHOT, null), WAIT, "A request to "
        + PageStatsVerticle.SNAPSHOT + " got no reply within " + WAIT_SECONDS + " s.").body();
    if (!(body instanceof JsonObject json)) {
      throw new AssertionFailedError(PageStatsVerticle.SNAPSHOT + " answered " + body + ", where a JsonObject "
          + "such as {\"total\": 3, \"pages\": {\"/home\": 2, \"/about\": 1}} was expected.");
    }
    return json;
  }

  /** One snapshot from each instance: the event bus hands point-to-point requests to its consumers in turn. */
  List<JsonObject> snapshotFromEachInstance() {
    List<JsonObject> snapshots = new ArrayList<>();
    for (int i = 0; i < INSTANCES; i++) {
      snapshots.add(snapshot());
    }
    return snapshots;
  }

  /**
   * Ships views to all instances at once, round after round, until {@code lost} says views were lost, or the loops
   * have been seen counting side by side for {@link Limits#MIN_PARALLEL_MILLIS} in all, or the rounds or the time run
   * out. A correct solution goes through the rounds; a racy one is caught, most often in the first.
   */
  Race race(String prefix, Predicate<Race> lost) {
    List<String> pages = new ArrayList<>();
    JsonArray everyPageOnce = new JsonArray();
    for (int p = 0; p < PAGES; p++) {
      pages.add(prefix + "/page-" + p);
      everyPageOnce.add(prefix + "/page-" + p);
    }
    // Every page is counted once before the race, by one instance, so the race only ever updates counts that
    // exist: a solution that adds entries to a map (which a HashMap cannot take from two threads either) loses
    // views the same way as one that only updates them, and the race test's message fits both.
    sendBatch(everyPageOnce);
    warmUp(pages);
    JsonObject before = snapshot();

    JsonArray batch = new JsonArray();
    for (int i = 0; i < BATCH_SIZE; i++) {
      batch.add(pages.get(i % PAGES));
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(RACE_BUDGET_SECONDS);
    List<Round> rounds = new ArrayList<>();
    while (true) {
      rounds.add(round(batch));
      Race race = new Race(rounds, pages, before, snapshot(), log.threads());
      if (lost.test(race) || race.parallelMillis() >= MIN_PARALLEL_MILLIS || rounds.size() >= MAX_ROUNDS
          || System.nanoTime() > deadline) {
        System.out.println("PageStatsVerticle, race on " + prefix + ": " + rounds + (lost.test(race)
            ? ", views lost" : race.parallelMillis() >= MIN_PARALLEL_MILLIS ? ", nothing lost"
            : ", nothing lost, but the loops ran side by side too little to prove anything"));
        return race;
      }
    }
  }

  /** Small batches, enough of them for the JIT compiler to compile the counting code before the race. */
  private void warmUp(List<String> pages) {
    JsonArray batch = new JsonArray();
    for (int i = 0; i < WARM_UP_BATCH_SIZE; i++) {
      batch.add(pages.get(i % PAGES));
    }
    List<Future<Message<Object>>> replies = new ArrayList<>();
    for (int i = 0; i < WARM_UP_BATCHES; i++) {
      replies.add(vertx.eventBus().request(PageStatsVerticle.VIEWS, Fresh.copyOf(batch)));
    }
    Await.result(Future.all(replies), RACE_WAIT, "Of " + WARM_UP_BATCHES + " batches of " + WARM_UP_BATCH_SIZE
        + " views, " + replies.stream().filter(Future::succeeded).count() + " were acknowledged within "
        + RACE_WAIT_SECONDS + " s. Reply to each batch once its views are counted.");
  }

  /**
   * One round: holds every instance's event loop while the batches are queued, then lets them all go at once, so
   * that the loops start counting together, each with a full queue, instead of one after the other as the
   * batches trickle in. Waits until every batch is acknowledged.
   */
  private Round round(JsonArray batch) {
    int batches = INSTANCES * VIEWS_PER_INSTANCE / BATCH_SIZE;
    DeliveryOptions options = new DeliveryOptions().setSendTimeout(RACE_WAIT_SECONDS * 1000);
    List<Future<Message<Object>>> replies = new ArrayList<>(batches);
    LoopHold hold = new LoopHold(contexts);
    long started;
    try {
      hold.awaitHeld();
      // Each batch decoded afresh, as a real request arrives: its page names are String objects of its own, so
      // a lock chosen by the String's identity (synchronized (page)) is a different lock in every batch.
      for (int i = 0; i < batches; i++) {
        replies.add(vertx.eventBus().request(PageStatsVerticle.VIEWS, Fresh.copyOf(batch), options));
      }
    } finally {
      log.startRound();
      started = System.nanoTime();
      hold.release();
    }
    Await.result(Future.all(replies), RACE_WAIT, "Of " + batches + " batches of " + BATCH_SIZE + " views, "
        + replies.stream().filter(Future::succeeded).count() + " were acknowledged within " + RACE_WAIT_SECONDS
        + " s. Reply to each batch once its views are counted.");
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    return new Round(batches, millis, TimeUnit.NANOSECONDS.toMicros(log.parallelNanos()));
  }
}
