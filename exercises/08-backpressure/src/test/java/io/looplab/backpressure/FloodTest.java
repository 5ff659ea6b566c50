package io.looplab.backpressure;

import io.looplab.backpressure.IngestScene.Reply;
import io.looplab.downstream.ItemSink;
import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Points;
import io.looplab.grader.guard.GivenCode;
import io.looplab.grader.probe.LagProbe;
import io.looplab.grader.testkit.Await;
import io.looplab.grader.testkit.OnContext;
import io.looplab.grader.testkit.WarmUp;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import static io.looplab.grader.testkit.Checks.require;

/**
 * Grades {@code POST /items} under a flood: {@value #FLOOD} requests, all in flight at once from a client on
 * 127.0.0.1, while the sink stores nothing. The service must answer every one of them at once, take in no more than
 * its limit, refuse the rest with 503 and Retry-After, keep its heap bounded, and, once the sink is let go, store
 * every item it took in exactly once.
 */
@GradedVertxTest
@Order(2)
@Timeout(value = 60, timeUnit = TimeUnit.SECONDS)
@GivenCode(value = ItemSink.class, is = "the slow store behind POST /items")
@DisplayName("08 Backpressure: a flood of 2,000 requests")
class FloodTest {

  static final int FLOOD = 2_000;
  static final int LIMIT = 8;

  /** The client's connections, each carrying {@link #PIPELINED} requests: {@link #FLOOD} in flight at once. */
  static final int CONNECTIONS = 250;
  static final int PIPELINED = FLOOD / CONNECTIONS;

  /**
   * How long the flood may take to be answered. The reference answers it in well under 2 s on 2 busy cores; only
   * a service that keeps requests waiting (for the sink, or in a queue of its own) comes near it.
   */
  static final Duration FLOOD_WAIT = Duration.ofSeconds(10);

  /**
   * How much the heap may have grown, after a full GC, while the flood waits on the sink: the items of
   * {@value #FLOOD} requests come to {@value #FLOOD} x 16 KiB = 31 MiB. The reference's growth was measured below
   * 1 MiB; a service that keeps every item grows by 31 MiB or more.
   */
  static final long HEAP_GROWTH_LIMIT = 12L * 1024 * 1024;

  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(SceneWarmUp::steps);
  }

  @Test
  @Order(4)
  @Points(5)
  @DisplayName("a flood of 2,000 requests at once: every one answered at once, at most the limit taken in, the rest "
      + "refused with 503 and Retry-After, the heap bounded, and every item taken in stored exactly once")
  void aFloodStaysBounded(Vertx vertx) {
    IngestScene scene = IngestScene.deploy(vertx, LIMIT);
    long heapBefore = heapAfterGc();

    // The flood comes from a Vert.x of its own, so that the lag probe measures the service's event loops alone.
    // All the requests are issued in one task of the client's loop, which also runs every connection they open: no
    // answer can be read before the last request is issued, so the whole flood is in flight at once.
    Vertx clients = Vertx.vertx();
    HttpClient flood = clients.createHttpClient(new HttpClientOptions().setDefaultHost("127.0.0.1")
            .setPipelining(true).setPipeliningLimit(PIPELINED),
        new PoolOptions().setHttp1MaxSize(CONNECTIONS).setMaxWaitQueueSize(-1));
    LagProbe probe = LagProbe.start(vertx, 5);
    long started = System.nanoTime();
    Map<String, Reply> replies = new ConcurrentHashMap<>();
    Map<String, Throwable> failures = new ConcurrentHashMap<>();
    AtomicInteger inFlight = new AtomicInteger();
    AtomicInteger peakInFlight = new AtomicInteger();
    List<Future<?>> answered = java.util.Collections.synchronizedList(new ArrayList<>());
    OnContext.run(clients.getOrCreateContext(), () -> {
      for (int i = 0; i < FLOOD; i++) {
        String name = String.format("flood-%04d", i);
        Buffer item = Items.of(name, IngestScene.ITEM_BYTES);
        peakInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
        answered.add(flood.request(new RequestOptions().setMethod(HttpMethod.POST).setPort(scene.service.port())
                .setHost("127.0.0.1").setURI("/items"))
            .compose(request -> request.send(item))
            .compose(response -> response.body().map(body -> new Reply(response.statusCode(),
                response.getHeader("Retry-After"), body.toString())))
            .andThen(done -> inFlight.decrementAndGet())
            .onSuccess(reply -> replies.put(name, reply))
            .onFailure(failure -> failures.put(name, failure)));
      }
    }, FLOOD_WAIT);
    try {
      Await.outcome(Future.join(answered), FLOOD_WAIT, "late");
    } catch (AssertionError late) {
      // judged below, with what was answered
    }
    boolean allAnswered = replies.size() + failures.size() == FLOOD;
    long answeredMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    int waiting = FLOOD - replies.size() - failures.size();
    LagProbe.Lag lag = probe.stop();
    Await.outcome(clients.close(), IngestScene.WAIT, "The test's client did not close.");
    long heapGrowth = heapAfterGc() - heapBefore;
    int sinkPeak = scene.sink.maxInFlight();

    List<String> accepted = names(replies, r -> r.status() == 202);
    List<String> refused = names(replies, r -> r.status() == 503);
    List<String> refusedWithoutRetryAfter = names(replies, r -> r.status() == 503
        && !IngestScene.isValidRetryAfter(r.retryAfter()));
    List<String> otherAnswers = names(replies, r -> r.status() != 202 && r.status() != 503);

    // Let the sink go, and store whatever the service hands it from now on, until it has nothing left to give.
    scene.sink.completeFromNowOn();
    awaitSinkQuiet(scene.sink, accepted.size());
    System.out.printf("[08 flood] %d requests, %d in flight at once at the client, answered in %d ms: %d taken in, "
            + "%d refused with 503; sink peak %d at once; heap growth after GC %.1f MiB; event-loop lag %s%n",
        FLOOD, peakInFlight.get(), answeredMillis, accepted.size(), refused.size(), sinkPeak,
        heapGrowth / 1048576.0, lag);

    Map<String, Integer> given = scene.sink.timesGiven();
    String figures = " (" + FLOOD + " requests in flight at once; the test's sink stored nothing until every "
        + "request was answered)";
    require(failures.isEmpty(), failures.size() + " of the " + FLOOD + " requests failed instead of getting an "
        + "answer, for example " + failures.entrySet().stream().findFirst().map(Object::toString).orElse("")
        + figures + ". Answer every request, "
        + "202 or 503; do not close the connection on it.");
    require(allAnswered, waiting + " of the " + FLOOD + " requests had no answer " + Await.inWords(FLOOD_WAIT)
        + " after they were sent, while the sink was busy with " + scene.sink.inFlight() + " item(s)" + figures
        + ": the service kept them waiting instead of refusing them. A request that waits holds its connection and "
        + "its body in memory; under a flood they pile up without bound. Answer at once: 202 when the item is taken "
        + "in, 503 with Retry-After when the service is full" + scene.sinkCallSite() + ".");
    List<String> lost = accepted.stream().filter(n -> !given.containsKey(n)).toList();
    require(lost.isEmpty(), "The service answered 202 to " + accepted.size() + " items, and " + lost.size()
        + " of them never reached the sink, even once it stored everything it was given: for example "
        + lost.subList(0, Math.min(3, lost.size())) + figures + ". Those items were silently dropped: the client "
        + "was told they were taken in, and will not send them again. Take an item in (202) only when it has a "
        + "place, and refuse it (503) when it has none; never answer 202 and then drop it" + scene.sinkCallSite()
        + ".");
    List<String> twice = given.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey).sorted()
        .toList();
    require(twice.isEmpty(), twice.size() + " item(s) reached the sink more than once, for example "
        + twice.subList(0, Math.min(3, twice.size())) + scene.sinkCallSite() + ". Hand each item to the sink "
        + "exactly once.");
    List<String> storedRefused = refused.stream().filter(given::containsKey).toList();
    require(storedRefused.isEmpty(), storedRefused.size() + " item(s) were refused with 503 and given to the sink "
        + "all the same, for example " + storedRefused.subList(0, Math.min(3, storedRefused.size()))
        + scene.sinkCallSite() + ". The client will send a refused item again; the service must not store it too.");
    require(accepted.size() <= LIMIT, "The limit is " + LIMIT + " items in the service, but while the sink stored "
        + "nothing the service took in " + accepted.size() + " of the " + FLOOD + " items (202), and the sink "
        + "had up to " + sinkPeak + " of them at once" + figures + ". " + (sinkPeak > LIMIT
        ? "Every item that arrives goes straight to the sink: a slow consumer is flooded with work it cannot do. "
        : "The sink never had more than " + sinkPeak + " at once, so the others waited in a queue that nothing "
        + "bounds: it grows as fast as requests arrive, here to " + (accepted.size() - sinkPeak) + " items, and "
        + "the heap with it (" + String.format("%.1f", heapGrowth / 1048576.0) + " MiB after a full GC). ")
        + "Count the items taken in and not yet done, and refuse with 503 once the count reaches the limit; a "
        + "queue is fine if the queue and the sink together hold no more than the limit" + scene.sinkCallSite()
        + ".");
    require(sinkPeak <= LIMIT, "The sink had " + sinkPeak + " items at once, above the limit of " + LIMIT
        + scene.sinkCallSite() + ".");
    require(heapGrowth <= HEAP_GROWTH_LIMIT, String.format("While the flood waited on the sink, the heap grew by "
        + "%.1f MiB after a full GC, above the %d MiB a bounded service needs%s: something keeps the items or the "
        + "requests that were refused. Keep no more than the limit's worth of items, and nothing of a refused "
        + "request.", heapGrowth / 1048576.0, HEAP_GROWTH_LIMIT / 1048576, figures));
    require(accepted.size() == LIMIT, "While the sink stored nothing, the service took in " + accepted.size()
        + " of the " + FLOOD + " items, though it had room for " + LIMIT + figures + ". Refuse only when the "
        + "service is full: an item refused with room to spare is work sent away for nothing.");
    require(otherAnswers.isEmpty(), otherAnswers.size() + " request(s) got neither 202 nor 503, for example "
        + (otherAnswers.isEmpty() ? "" : replies.get(otherAnswers.get(0)).describe()) + ".");
    require(refusedWithoutRetryAfter.isEmpty(), refusedWithoutRetryAfter.size() + " of the " + refused.size()
        + " refusals had no valid Retry-After header, for example " + (refusedWithoutRetryAfter.isEmpty() ? ""
        : replies.get(refusedWithoutRetryAfter.get(0)).describe()) + ". Without it, " + refused.size()
        + " clients retry when they please, most of them at once. Add Retry-After to every 503.");
  }

  private static List<String> names(Map<String, Reply> replies, java.util.function.Predicate<Reply> which) {
    return replies.entrySet().stream().filter(e -> which.test(e.getValue())).map(Map.Entry::getKey)
        .collect(Collectors.toCollection(TreeSet::new)).stream().toList();
  }

  /**
   * Waits until the sink has been given at least {@code accepted} items and stored all it was given, or until it
   * has seen nothing new for a second: a service that dropped items never gives them, and the test must not wait
   * for them long.
   */
  private static void awaitSinkQuiet(HeldSink sink, int accepted) {
    long deadline = System.nanoTime() + FLOOD_WAIT.toNanos();
    int seen = -1;
    while (System.nanoTime() < deadline) {
      int calls = sink.calls();
      if (calls >= accepted && sink.done() >= calls) {
        return;
      }
      if (calls == seen && sink.done() >= calls) {
        // nothing new for a whole second, and nothing pending: the service has nothing more to give
        if (!sink.awaitCalls(calls + 1, 1_000)) {
          return;
        }
      }
      seen = calls;
      sink.awaitDone(calls, 200);
    }
  }

  /** The heap in use after a full collection: what is really kept, not garbage waiting for the collector. */
  static long heapAfterGc() {
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 3; i++) {
      System.gc();
      used = Math.min(used, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
    }
    return used;
  }
}
