package io.looplab.backpressure;

import io.looplab.backpressure.IngestScene.Reply;
import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Points;
import io.looplab.grader.guard.GivenCode;
import io.looplab.grader.testkit.WarmUp;
import io.looplab.downstream.ItemSink;
import io.vertx.core.Vertx;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.looplab.grader.testkit.Checks.require;

/**
 * Grades {@code POST /items} one request at a time: an item taken in reaches the sink once; beyond the limit the
 * service answers 503 with Retry-After and the sink never sees the item; an item the sink is done with, stored or
 * failed, makes room for the next. The sink is a {@link HeldSink}: each call waits until this test completes it, so
 * nothing here depends on timing.
 */
@GradedVertxTest
@Order(1)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@GivenCode(value = ItemSink.class, is = "the slow store behind POST /items")
@DisplayName("08 Backpressure: the limit on items, one request at a time")
class ItemLimitTest {

  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(SceneWarmUp::steps);
  }

  @Test
  @Order(1)
  @Points(1)
  @DisplayName("an item taken in is answered 202 at once and reaches the sink exactly once")
  void anAcceptedItemReachesTheSinkOnce(Vertx vertx) {
    IngestScene scene = IngestScene.deploy(vertx, 4);

    Reply first = scene.postAndWait("item-1");
    require(first.status() == 202, "POST /items with item-1, into an empty service, should answer 202 (taken in), "
        + "but it answered " + first.describe() + ".");
    require(scene.sink.awaitCalls(1, IngestScene.WAIT.toMillis()), "item-1 was answered 202, but it did not reach "
        + "the sink within " + IngestScene.WAIT.toSeconds() + " s. 202 is a promise: the item will be stored.");
    scene.sink.complete(0);

    Reply second = scene.postAndWait("item-2");
    require(second.status() == 202, "POST /items with item-2 should answer 202, but it answered "
        + second.describe() + ".");
    require(scene.sink.awaitCalls(2, IngestScene.WAIT.toMillis()), "item-2 was answered 202, but it did not reach "
        + "the sink within " + IngestScene.WAIT.toSeconds() + " s.");
    scene.sink.complete(1);
    require(scene.sink.timesGiven().equals(Map.of("item-1", 1, "item-2", 1)), "Each item taken in should reach "
        + "the sink exactly once, but the sink was given " + scene.sink.namesGiven() + scene.sinkCallSite() + ".");
  }

  @Test
  @Order(2)
  @Points(3)
  @DisplayName("beyond the limit, an item is refused with 503 and a Retry-After header, and the sink never sees it")
  void refusesBeyondTheLimitWith503AndRetryAfter(Vertx vertx) {
    int limit = 4;
    IngestScene scene = IngestScene.deploy(vertx, limit);
    for (int i = 1; i <= limit; i++) {
      Reply reply = scene.postAndWait("item-" + i);
      require(reply.status() == 202, "With a limit of " + limit + " and " + (i - 1) + " item(s) in the service, "
          + "item-" + i + " should be taken in (202), but the service answered " + reply.describe() + ". Refuse "
          + "only when the service is full.");
    }
    for (int i = limit + 1; i <= limit + 3; i++) {
      Reply reply = i == limit + 1 ? refusedAtOnce(scene, "item-" + i, limit) : scene.postAndWait("item-" + i);
      int given = scene.sink.calls();
      require(reply.status() != 202, "The limit is " + limit + " items in the service, and " + limit
          + " had been taken in, none of them done by the sink, yet item-" + i + " was taken in too (202): the sink "
          + "has been given " + given + " items at once" + scene.sinkCallSite() + ". Under a flood such a service "
          + "holds, or hands on, everything that arrives, and nothing bounds its memory. Count the items in the "
          + "service, and answer 503 once the count reaches the limit.");
      require(reply.status() == 503, "The service was full (" + limit + " items with the sink), so item-" + i
          + " should be refused with 503 Service Unavailable, but it was answered " + reply.describe() + ". 503 "
          + "tells the client the refusal is temporary.");
      require(reply.retryAfter() != null, "item-" + i + " was refused with 503, but without a Retry-After header. "
          + "Without it a client cannot know when to come back, and many retry at once, in a loop, making the "
          + "flood worse. Add Retry-After with a number of seconds, for example "
          + "putHeader(\"Retry-After\", RETRY_AFTER_SECONDS).");
      require(IngestScene.isValidRetryAfter(reply.retryAfter()), "item-" + i + " was refused with 503 and "
          + "Retry-After: \"" + reply.retryAfter() + "\", which is not a value HTTP allows: a whole number of "
          + "seconds (\"1\") or an HTTP date.");
      String refusedItem = "item-" + i;
      require(!scene.sink.namesGiven().contains(refusedItem), refusedItem + " was refused with 503, but the sink "
          + "was given it all the same: it has had " + scene.sink.namesGiven() + scene.sinkCallSite() + ". A refused "
          + "item is the client's to send again; the service must not store it as well.");
    }
    require(scene.sink.maxInFlight() <= limit, "The sink had " + scene.sink.maxInFlight() + " items at once, above "
        + "the limit of " + limit + scene.sinkCallSite() + ".");
    scene.sink.completeAll();
  }

  /**
   * How long a refusal may take to reach the client once the service has read the item, and then a request sent
   * after it. A 503 written when the item was read is on its way already, and arrives on loopback within
   * milliseconds; the margin is for a busy machine. Only a service that holds its refusal back (a timer before the
   * 503) waits it out.
   */
  static final java.time.Duration AT_ONCE = java.time.Duration.ofSeconds(1);

  /** Posts {@code name} into a full service, and checks that its answer does not wait once the service read it. */
  private static Reply refusedAtOnce(IngestScene scene, String name, int limit) {
    IngestScene.Sent sent = scene.postTracked(name);
    io.looplab.grader.testkit.Await.outcome(sent.written(), IngestScene.WAIT, "The test's client could not send "
        + name + ".");
    // The service's loop reads connections in the order their bytes arrive: once it has answered a request sent
    // after the item, it has read the item too.
    scene.awaitServiceRead();
    long readAt = System.nanoTime();
    try {
      io.looplab.grader.testkit.Await.outcome(sent.reply(), AT_ONCE, "late");
    } catch (AssertionError late) {
      // judged below
    }
    require(sent.reply().isComplete(), "The service was full (" + limit + " items with the sink, none done), and "
        + "it had read " + name + " (it had already answered a request the test sent after it), yet " + name
        + " was not answered within " + java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(System.nanoTime()
        - readAt) + " ms. A full service refuses at once: 503 with Retry-After in the same step that finds it full. "
        + "Holding the refusal back (a timer before the 503) keeps the request, its connection and its body in "
        + "memory for as long, the very thing a refusal avoids; Retry-After is how a full service slows its "
        + "clients down.");
    return io.looplab.grader.testkit.Await.result(sent.reply(), IngestScene.WAIT, name + " got no answer.");
  }

  @Test
  @Order(3)
  @Points(2)
  @DisplayName("an item the sink is done with makes room for the next one, whether the sink stored it or failed")
  void aFinishedItemMakesRoom(Vertx vertx) {
    IngestScene scene = IngestScene.deploy(vertx, 2);
    require(scene.postAndWait("item-1").status() == 202 && scene.postAndWait("item-2").status() == 202,
        "With a limit of 2, the first two items should both be taken in (202).");
    require(scene.sink.awaitCalls(1, IngestScene.WAIT.toMillis()), "Two items were taken in, but none reached the "
        + "sink within " + IngestScene.WAIT.toSeconds() + " s.");
    Reply full = scene.postAndWait("item-3");
    require(full.status() == 503, "With 2 items in the service and a limit of 2, item-3 should be refused with "
        + "503, but it was answered " + full.describe() + ".");

    String stored = scene.sink.namesGiven().get(0);
    scene.sink.complete(0);
    Reply afterStored = scene.postAndWait("item-4");
    require(afterStored.status() == 202, "The sink had stored " + stored + ", so the service had room again for "
        + "one item, yet item-4 was answered " + afterStored.describe() + ". When the sink is done with an item, its "
        + "place in the service is free: count it out when the sink's future completes.");

    require(scene.sink.awaitCalls(2, IngestScene.WAIT.toMillis()), "The sink stored " + stored + ", and the "
        + "service still held another item it had taken in, but that item did not reach the sink within "
        + IngestScene.WAIT.toSeconds() + " s. An item taken in must go on to the sink once it has room.");
    String failed = scene.sink.namesGiven().get(1);
    scene.sink.fail(1, new SinkFailure("disk full"));
    Reply afterFailure = scene.postAndWait("item-5");
    require(afterFailure.status() == 202 || !scene.givenAgain(failed).isEmpty(), "The sink failed " + failed
        + " (disk full), so the sink was done with it and the service had room again, yet item-5 was answered "
        + afterFailure.describe() + ". The failure did "
        + "not give the item's place back: every failure now shrinks the service for good, until it refuses "
        + "everything. Count the item out on every outcome of the sink's future (andThen, onComplete, or "
        + "eventually), not in onSuccess alone" + scene.sinkCallSite() + ".");
    require(afterFailure.status() == 202, "The sink failed " + failed + " (disk full), yet item-5 was answered "
        + afterFailure.describe() + "." + scene.givenAgain(failed));

    Reply fullAgain = scene.postAndWait("item-6");
    require(fullAgain.status() == 503, "Two items were in the service again (item-4 and item-5, neither done), a "
        + "limit of 2, so item-6 should be refused with 503, but it was answered " + fullAgain.describe() + ": an "
        + "item was counted out twice, or never counted in.");
    scene.sink.completeAll();
  }
}
