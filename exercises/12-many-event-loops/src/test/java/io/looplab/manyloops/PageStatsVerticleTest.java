package io.looplab.manyloops;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Points;
import io.looplab.grader.leaks.ShutdownCheck;
import io.looplab.grader.races.Fresh;
import io.looplab.grader.races.StateFields;
import io.looplab.grader.races.StateFields.StateField;
import io.vertx.core.Context;
import io.vertx.core.Deployable;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryContext;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.shareddata.Counter;
import io.vertx.core.shareddata.LocalMap;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Grades PageStatsVerticle by its counts, with its four instances on four event-loop threads. The race tests hold
 * the four loops, queue hundreds of batches, and let the loops go at once, round after round, until either a view
 * is lost or the loops have been seen counting side by side long enough that a racy count would have lost some
 * (see {@link #MIN_PARALLEL_MILLIS}). A thread-safe count never loses one. So the verdict rests on final counts
 * alone, never on which tool the solution used: a local Counter, a LocalMap, atomics or a single owner all pass.
 * Each test works with page names of its own and compares snapshots taken before and after, so counts that live
 * on in a static field from an earlier test change nothing. The guard fails any test whose code blocks or stalls
 * an event loop.
 */
@GradedVertxTest
@Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
@DisplayName("12 Many event loops: four instances of one verticle count into shared statistics without losing a view")
class PageStatsVerticleTest {

  /** Instances deployed. Vert.x has two event loops per core: from 2 cores up, each instance gets a loop of its own. */
  private static final int INSTANCES = 4;

  /**
   * Views each instance counts in one round of a race test: 100,000, the least at which a plain long or a HashMap
   * lost views on every run of a quiet 2-core machine (at 10,000 a run could lose nothing).
   */
  private static final int VIEWS_PER_INSTANCE = 100_000;

  /**
   * How long, in all, the loops must have been seen counting at the same moment before a race test trusts a result
   * with nothing lost. Measured with a plain static long on a crowded 2-core machine: 1.3 to 40 views lost per
   * millisecond of such overlap (a HashMap loses far more), so 10 ms leave a racy count no real chance.
   * A quiet machine gives that in one round. A crowded one, where the four loops may take turns on one core, takes
   * more rounds (see {@link BatchLog}).
   */
  private static final long MIN_PARALLEL_MILLIS = 10;

  /**
   * The most time a race test starts new rounds in, and the most rounds. A round takes 30 to 800 ms on a crowded
   * 2-core machine; with a few other builds running there, 40 rounds once went by without a single millisecond of
   * the loops side by side. A machine that busy for the whole budget cannot show a race either way, and the test
   * then accepts what it saw. A single-owner design, whose instances do little each, can also take the budget.
   */
  private static final long RACE_BUDGET_SECONDS = 10;
  private static final int MAX_ROUNDS = 200;

  /**
   * Views per batch. Each batch is one task on one event loop, so it must stay far below the guard's 50 ms stall
   * limit: 1,000 views take well under a millisecond once the JIT compiler has run. Before the race, smaller
   * batches ({@link #WARM_UP_BATCH_SIZE}) get the code compiled, since interpreted code is tens of times slower.
   */
  private static final int BATCH_SIZE = 1_000;
  private static final int WARM_UP_BATCHES = 200;
  private static final int WARM_UP_BATCH_SIZE = 100;

  /** Pages each race test counts views of: few, so that the loops keep hitting the same counts. */
  private static final int PAGES = 8;

  /** How long the test waits for something a correct solution does in milliseconds: a reply, a deployment. */
  private static final long WAIT_SECONDS = 5;

  /** How long the test waits for the batches of one round to be counted; well under a second is typical. */
  private static final long RACE_WAIT_SECONDS = 15;

  /**
   * Runs the event-bus path this exercise uses, with a verticle of the test's own, before any graded test: in a
   * cold JVM the first requests, replies and shared-data calls spend tens of milliseconds loading and interpreting
   * code, which the stall detector could blame on the learner's handler.
   */
  @BeforeAll
  static void warmUpTheJvm() {
    Vertx vertx = Vertx.vertx();
    try {
      await(vertx.deployVerticle(WarmUpVerticle::new, new DeploymentOptions().setInstances(INSTANCES)),
          RACE_WAIT_SECONDS, "The warm-up verticle did not deploy.");
      JsonArray batch = new JsonArray();
      for (int i = 0; i < WARM_UP_BATCH_SIZE; i++) {
        batch.add("/warm-up/page-" + i % PAGES);
      }
      List<Future<Message<Object>>> replies = new ArrayList<>();
      for (int i = 0; i < WARM_UP_BATCHES; i++) {
        replies.add(vertx.eventBus().request(WarmUpVerticle.ADDRESS, batch));
      }
      await(Future.all(replies), RACE_WAIT_SECONDS, "The warm-up requests got no answer.");
    } finally {
      await(vertx.close(), RACE_WAIT_SECONDS, "The warm-up Vert.x instance did not close.");
    }
  }

  /** The test's own verticle for {@link #warmUpTheJvm()}: the same kind of work as the exercise, done right. */
  static final class WarmUpVerticle extends VerticleBase {
    static final String ADDRESS = "looplab.warm-up";

    @Override
    public Future<?> start() {
      LocalMap<String, Long> counts = vertx.sharedData().getLocalMap(ADDRESS);
      return vertx.sharedData().getLocalCounter(ADDRESS).compose(counter -> vertx.eventBus()
          .<JsonArray>consumer(ADDRESS, batch -> {
            List<Future<Long>> counted = new ArrayList<>();
            for (int i = 0; i < batch.body().size(); i++) {
              counts.merge(batch.body().getString(i), 1L, Long::sum);
              counted.add(counter.incrementAndGet());
            }
            Future.all(counted).onSuccess(done -> {
              JsonObject reply = new JsonObject();
              counts.forEach(reply::put);
              batch.reply(reply);
            });
          }).completion());
    }
  }

  // ----------------------------------------------------------------------------------------------------------------

  @Test
  @Order(1)
  @Points(3)
  @DisplayName("one batch of views is counted exactly: the total and each page's count")
  void oneBatchIsCountedExactly(Vertx vertx) {
    Stats stats = deploy(vertx);
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
    Stats stats = deploy(vertx);
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

  @Test
  @Order(3)
  @Points(6)
  @DisplayName("four instances counting at once, " + INSTANCES * VIEWS_PER_INSTANCE + " views a round, "
      + "lose no view from the total")
  void totalLosesNoViewUnderFourLoops(Vertx vertx) {
    Stats stats = deploy(vertx);
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

  @Test
  @Order(4)
  @Points(6)
  @DisplayName("four instances counting at once, " + INSTANCES * VIEWS_PER_INSTANCE + " views a round, "
      + "lose no view from any page")
  void pageCountsLoseNoViewUnderFourLoops(Vertx vertx) {
    Stats stats = deploy(vertx);
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

  @Test
  @Order(5)
  @Points(3)
  @DisplayName("undeploying the four instances leaves no consumer, verticle, timer, worker pool or thread behind")
  void undeployLeavesNothingBehind(Vertx vertx) {
    Stats stats = deploy(vertx);
    stats.sendBatch(new JsonArray().add("/bye/home").add("/bye/home"));
    stats.snapshot();

    ShutdownCheck.assertCleanUndeploy(vertx, stats.deploymentId());

    // Still deployed: anything the instances deployed on their own, and did not undeploy with them.
    require(vertx.deploymentIDs().isEmpty(), "After undeploying PageStatsVerticle, these deployments were still "
        + "running: " + vertx.deploymentIDs() + ". A verticle deployed from start() (for example a single owner of "
        + "the statistics) must be undeployed with the instances: deploy it from start(), on the instance's own "
        + "context, so that Vert.x undeploys it with its parent, or undeploy it in stop().");
    // Still consuming: a consumer registered elsewhere than on the instances' own contexts.
    for (String address : List.of(PageStatsVerticle.VIEWS, PageStatsVerticle.SNAPSHOT)) {
      Future<Message<Object>> answer = vertx.eventBus().request(address, address.equals(PageStatsVerticle.VIEWS)
          ? new JsonArray().add("/bye/home") : null, new DeliveryOptions().setSendTimeout(WAIT_SECONDS * 1000));
      Throwable failure = awaitFailure(answer, address);
      require(failure instanceof ReplyException reply && reply.failureType() == ReplyFailure.NO_HANDLERS,
          "After undeploying PageStatsVerticle, a message to " + address + " still reached a consumer ("
              + (failure == null ? "it answered" : failure.toString()) + "). Register consumers in start(), "
              + "where Vert.x unregisters them on undeploy, or unregister them in stop().");
    }
  }

  // ----------------------------------------------------------------------------------------------------------------

  /**
   * Deploys {@value #INSTANCES} instances, as {@code deployVerticle(PageStatsVerticle.class, options)} would, but
   * through a thin wrapper of the test's own that notes each instance's context, so that a race test can hold the
   * instances' event loops while it queues the batches. The wrapper only passes deploy and undeploy on.
   */
  private static Stats deploy(Vertx vertx) {
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
    String id = await(vertx.deployVerticle(instance, new DeploymentOptions().setInstances(INSTANCES)),
        WAIT_SECONDS, "Deploying " + INSTANCES + " instances of PageStatsVerticle did not finish within "
            + WAIT_SECONDS + " s: start() must complete its future once the consumers are registered.");
    return new Stats(vertx, id, oneContextPerThread(contexts), log, List.copyOf(instances));
  }

  /**
   * One context per event-loop thread among {@code contexts}. Usually each instance has a loop of its own, but when
   * the code deploys a verticle of its own while the instances start, two instances can share a loop; holding that
   * loop twice would wait for ever.
   */
  private static List<Context> oneContextPerThread(List<Context> contexts) {
    Map<Context, Future<String>> threads = new LinkedHashMap<>();
    for (Context context : contexts) {
      Promise<String> thread = Promise.promise();
      context.runOnContext(v -> thread.complete(Thread.currentThread().getName()));
      threads.put(context, thread.future());
    }
    Map<String, Context> byThread = new LinkedHashMap<>();
    threads.forEach((context, thread) -> byThread.putIfAbsent(await(thread, WAIT_SECONDS, "The instances' event "
        + "loops did not run a task of the test's within " + WAIT_SECONDS + " s: is something keeping a loop busy?"),
        context));
    return List.copyOf(byThread.values());
  }

  /** The deployed instances, seen from the event bus, as the rest of an application sees them. */
  private record Stats(Vertx vertx, String deploymentId, List<Context> contexts, BatchLog log,
                       List<PageStatsVerticle> instances) {

    /** Where the instances keep their statistics: for a failure message, never for the verdict. */
    List<StateField> stateFields() {
      return StateFields.of(PageStatsVerticle.class, instances);
    }

    Object sendBatch(JsonArray pages) {
      return await(vertx.eventBus().request(PageStatsVerticle.VIEWS, Fresh.copyOf(pages)), WAIT_SECONDS, "A batch of "
          + pages.size() + " views sent to " + PageStatsVerticle.VIEWS + " got no reply within " + WAIT_SECONDS
          + " s. Reply to each batch once its views are counted.").body();
    }

    JsonObject snapshot() {
      Object body = await(vertx.eventBus().request(PageStatsVerticle.SNAPSHOT, null), WAIT_SECONDS, "A request to "
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
     * have been seen counting side by side for {@link #MIN_PARALLEL_MILLIS} in all, or the rounds or the time run
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
          System.out.println("PageStatsVerticleTest, race on " + prefix + ": " + rounds + (lost.test(race)
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
      await(Future.all(replies), RACE_WAIT_SECONDS, "Of " + WARM_UP_BATCHES + " batches of " + WARM_UP_BATCH_SIZE
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
      await(Future.all(replies), RACE_WAIT_SECONDS, "Of " + batches + " batches of " + BATCH_SIZE + " views, "
          + replies.stream().filter(Future::succeeded).count() + " were acknowledged within " + RACE_WAIT_SECONDS
          + " s. Reply to each batch once its views are counted.");
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
      return new Round(batches, millis, TimeUnit.NANOSECONDS.toMicros(log.parallelNanos()));
    }
  }

  /**
   * The test's own hold on the instances' event loops: a task on each that waits until the test releases it. The
   * guard leaves this wait alone, as it grades only the code under test (it notes it on the console as "not
   * graded"), and the wait is bounded, so a test that fails midway never wedges a loop.
   */
  private static final class LoopHold {

    private final CountDownLatch held;
    private final CountDownLatch go = new CountDownLatch(1);

    LoopHold(List<Context> contexts) {
      held = new CountDownLatch(contexts.size());
      for (Context context : contexts) {
        context.runOnContext(v -> hold());
      }
    }

    private void hold() {
      held.countDown();
      try {
        go.await(RACE_WAIT_SECONDS, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    void awaitHeld() {
      try {
        if (held.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
          return;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      throw new AssertionFailedError("The instances' event loops did not run a task of the test's within "
          + WAIT_SECONDS + " s: is something keeping a loop busy?");
    }

    void release() {
      go.countDown();
    }
  }

  /**
   * When each batch was handled, and on which thread, seen by an event-bus interceptor of the test's own. Inbound
   * interceptors run on the receiving instance's event loop, right around its handler, so a batch's span is the
   * time its handler ran.
   *
   * <p>It answers the question a race test must ask before it trusts "nothing was lost": did the loops really run
   * at the same moment? Two spans of different threads that overlap in time mean two loops were counting at once,
   * provided neither thread was taken off its core midway. So only spans whose thread was on a core nearly all the
   * time count (its CPU time is at least {@link #ON_CORE_SHARE} of the span), and the time covered by two or more
   * such spans at once is time the loops were truly counting side by side. On a crowded 2-core machine, four loops
   * may take turns on one core for a long while, and then a racy count can get lucky.
   */
  private static final class BatchLog {

    private static final double ON_CORE_SHARE = 0.9;
    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    private record Span(String thread, long start, long end, long cpu) {
    }

    private final Queue<Span> spans = new ConcurrentLinkedQueue<>();
    private final Set<String> threads = ConcurrentHashMap.newKeySet();

    void intercept(DeliveryContext<Object> delivery) {
      if (!PageStatsVerticle.VIEWS.equals(delivery.message().address())) {
        delivery.next();
        return;
      }
      long cpu = CPU.getCurrentThreadCpuTime();
      long start = System.nanoTime();
      try {
        delivery.next();
      } finally {
        long end = System.nanoTime();
        String thread = Thread.currentThread().getName();
        spans.add(new Span(thread, start, end, CPU.getCurrentThreadCpuTime() - cpu));
        threads.add(thread);
      }
    }

    /** Forgets the spans seen so far: call it while no batch is being handled. */
    void startRound() {
      spans.clear();
    }

    String threads() {
      Set<String> names = new TreeSet<>(threads);
      return names.size() + (names.size() == 1 ? " event-loop thread (" : " event-loop threads (")
          + String.join(", ", names) + ")";
    }

    /** Time during which spans of two or more threads, each spent on a core, overlapped, since the round began. */
    long parallelNanos() {
      List<long[]> edges = new ArrayList<>(); // {time, +1 or -1}
      for (Span span : spans) {
        if (span.cpu() >= ON_CORE_SHARE * (span.end() - span.start())) {
          edges.add(new long[] {span.start(), 1});
          edges.add(new long[] {span.end(), -1});
        }
      }
      // Ends before starts at the same instant: spans that merely touch do not overlap.
      edges.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
      long parallel = 0;
      int running = 0;
      long since = 0;
      for (long[] edge : edges) {
        if (running >= 2) {
          parallel += edge[0] - since;
        }
        running += (int) edge[1];
        since = edge[0];
      }
      return parallel;
    }
  }

  /**
   * One round of a race: {@code batches} batches counted in {@code millis} of wall time, with two or more loops
   * counting at the same moment for {@code parallelMicros} of it (see {@link BatchLog}).
   */
  private record Round(int batches, long millis, long parallelMicros) {
  }

  /** What a race test sent, round by round, and the snapshots before and after. */
  private record Race(List<Round> rounds, List<String> pages, JsonObject before, JsonObject after, String threads) {

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

  private static long totalOf(JsonObject snapshot, String when) {
    Object total = snapshot.getValue("total");
    if (!(total instanceof Number number)) {
      throw new AssertionFailedError("The snapshot " + when + " has no number under \"total\": "
          + snapshot.encode() + ". Answer {\"total\": <views>, \"pages\": {<page>: <views>, ...}}.");
    }
    return number.longValue();
  }

  /** A page's count in a snapshot; 0 for a page it does not list yet. */
  private static long pageCountOf(JsonObject snapshot, String page) {
    Object pages = snapshot.getValue("pages");
    if (!(pages instanceof JsonObject byPage)) {
      throw new AssertionFailedError("The snapshot has no object under \"pages\": " + snapshot.encode()
          + ". Answer {\"total\": <views>, \"pages\": {<page>: <views>, ...}}.");
    }
    Object count = byPage.getValue(page);
    if (count != null && !(count instanceof Number)) {
      throw new AssertionFailedError("The snapshot counts " + count + " for " + page + ", where a number was "
          + "expected: " + snapshot.encode());
    }
    return count == null ? 0 : ((Number) count).longValue();
  }

  private static String totalsOf(List<JsonObject> before, List<JsonObject> after) {
    List<String> totals = new ArrayList<>();
    for (int i = 0; i < before.size(); i++) {
      totals.add("total " + totalOf(before.get(i), "before") + " then " + totalOf(after.get(i), "after"));
    }
    return totals.stream().collect(Collectors.joining("; ", "[", "]"));
  }

  /** Fails with {@code message} alone: it already says what was expected and what happened. */
  private static void require(boolean condition, String message) {
    if (!condition) {
      throw new AssertionFailedError(message);
    }
  }

  /** Waits on the test's own thread, never on an event loop; {@code ifLate} explains what a timeout means. */
  private static <T> T await(Future<T> future, long seconds, String ifLate) {
    try {
      return future.toCompletionStage().toCompletableFuture().get(seconds, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      throw new AssertionFailedError(ifLate);
    } catch (ExecutionException e) {
      throw new AssertionFailedError("The request failed: " + e.getCause() + ". " + ifLate, e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionFailedError("interrupted", e);
    }
  }

  /** The failure of a request that should fail: null when it succeeded instead. */
  private static Throwable awaitFailure(Future<?> future, String address) {
    try {
      future.toCompletionStage().toCompletableFuture().get(2 * WAIT_SECONDS, TimeUnit.SECONDS);
      return null;
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (TimeoutException e) {
      throw new AssertionFailedError("A request to " + address + " after undeploy neither failed nor got an "
          + "answer within " + 2 * WAIT_SECONDS + " s.");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionFailedError("interrupted", e);
    }
  }
}
