package io.looplab.backpressure;

import io.looplab.backpressure.IngestScene.Reply;
import io.looplab.downstream.ItemSink;
import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Points;
import io.looplab.grader.guard.GivenCode;
import io.looplab.grader.sync.EveryOrder;
import io.looplab.grader.testkit.WarmUp;
import io.vertx.core.Vertx;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static io.looplab.grader.testkit.Checks.require;

/**
 * Grades {@code POST /items} with several items in flight: two services side by side, each with its own limit
 * (neither a limit the other tests use), and every order in which the sink can finish three items, one of them
 * failed. Each service counts its own items, and each item's place comes back once, whichever finishes first.
 */
@GradedVertxTest
@Order(5)
@Timeout(value = 30, timeUnit = TimeUnit.SECONDS)
@GivenCode(value = ItemSink.class, is = "the slow store behind POST /items")
@DisplayName("08 Backpressure: several items in flight")
class ManyInFlightTest {

  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(SceneWarmUp::steps);
  }

  @Test
  @Order(8)
  @Points(2)
  @DisplayName("two services side by side, with limits of 3 and 11, each take in exactly their own limit")
  void twoServicesKeepTheirOwnLimits(Vertx vertx) {
    IngestScene small = IngestScene.deploy(vertx, 3);
    IngestScene big = IngestScene.deploy(vertx, 11);
    String both = " (two IngestVerticles deployed side by side, one with a limit of 3, the other with 11, each with "
        + "a sink of its own that stored nothing)";

    for (int i = 1; i <= 3; i++) {
      Reply reply = small.postAndWait("small-" + i);
      require(reply.status() == 202, "The service with a limit of 3 held " + (i - 1) + " item(s), yet small-" + i
          + " was answered " + reply.describe() + both + ".");
    }
    Reply fourth = small.postAndWait("small-4");
    require(fourth.status() == 503, "The service with a limit of 3 held 3 items, none done, yet small-4 was "
        + "answered " + fourth.describe() + both + ": it took in more than the limit it was deployed with. "
        + "Each instance must use the limit given to its own constructor; a static field is shared by every "
        + "instance, and the last one deployed sets it for all.");

    for (int i = 1; i <= 11; i++) {
      Reply reply = big.postAndWait("big-" + i);
      require(reply.status() == 202, "The service with a limit of 11 held " + (i - 1) + " item(s) of its own, yet "
          + "big-" + i + " was answered " + reply.describe() + ", while the other service held its 3" + both
          + ". Either the other service's items were counted here too (a count shared between instances, through a "
          + "static field), or the limit used is not the 11 this instance was given: it refused at " + (i - 1)
          + ".");
    }
    Reply twelfth = big.postAndWait("big-12");
    require(twelfth.status() == 503, "The service with a limit of 11 held 11 items, none done, yet big-12 was "
        + "answered " + twelfth.describe() + both + ".");

    small.sink.completeAll();
    Reply afterRoom = small.postAndWait("small-5");
    require(afterRoom.status() == 202, "The sink of the service with a limit of 3 stored its 3 items, yet small-5 "
        + "was answered " + afterRoom.describe() + " while the other service still held 11" + both + ".");
    Reply bigStillFull = big.postAndWait("big-13");
    require(bigStillFull.status() == 503, "The other service's sink stored its items, and this one's stored none "
        + "of its 11, yet big-13 was answered " + bigStillFull.describe() + both + ": one instance's places were "
        + "freed by the other's sink.");
    require(small.sink.maxInFlight() <= 3 && big.sink.maxInFlight() <= 11, "The sinks had up to "
        + small.sink.maxInFlight() + " and " + big.sink.maxInFlight() + " items at once, above their limits of 3 and "
        + "11" + both + ".");
    small.sink.completeAll();
    big.sink.completeAll();
  }

  @TestFactory
  @Order(9)
  @Points(2)
  @DisplayName("three items in flight (#1, #2 which the sink fails, #3), finished in every order: each one done "
      + "frees exactly one place, and every item taken in reaches the sink exactly once")
  Stream<DynamicTest> placesComeBackInEveryOrder(Vertx vertx) {
    return EveryOrder.of(3, order -> releaseInOrder(vertx, order));
  }

  private static void releaseInOrder(Vertx vertx, int[] order) {
    int limit = 3;
    IngestScene scene = IngestScene.deploy(vertx, limit);
    List<String> accepted = new ArrayList<>();
    List<String> refused = new ArrayList<>();
    String orderInWords = Arrays.stream(order).mapToObj(i -> "item-" + (i + 1)).collect(Collectors.joining(", "));
    for (int i = 1; i <= limit; i++) {
      Reply reply = scene.postAndWait("item-" + i);
      require(reply.status() == 202, "With a limit of " + limit + " and " + (i - 1) + " item(s) in the service, "
          + "item-" + i + " was answered " + reply.describe() + ".");
      accepted.add("item-" + i);
    }
    Reply full = scene.postAndWait("item-4");
    require(full.status() == 503, "With " + limit + " items in the service and a limit of " + limit + ", item-4 "
        + "was answered " + full.describe() + ".");
    refused.add("item-4");

    List<String> finished = new ArrayList<>();
    for (int step = 0; step < order.length; step++) {
      String name = "item-" + (order[step] + 1);
      boolean fails = name.equals("item-2");
      String done = finish(scene, name, fails);
      finished.add(done + (fails ? " (failed)" : " (stored)"));
      String story = " (limit " + limit + "; the sink finished " + String.join(", then ", finished)
          + ", in the order " + orderInWords + ", and the test sent one new item after each)";
      Reply next = scene.postAndWait("new-" + (step + 1));
      require(next.status() == 202, "The sink had just " + (fails ? "failed " : "stored ") + done + ", so the "
          + "service had one place free, yet new-" + (step + 1) + " was answered " + next.describe() + story + "."
          + (fails && !scene.givenAgain(done).isEmpty() ? scene.givenAgain(done)
          : " Every item the sink is done with, stored or failed, in whatever order, gives back its own place"
          + scene.sinkCallSite() + "."));
      accepted.add("new-" + (step + 1));
      Reply extra = scene.postAndWait("extra-" + (step + 1));
      require(extra.status() == 503, "After new-" + (step + 1) + " took the free place, the service held "
          + limit + " items again, none done, yet extra-" + (step + 1) + " was answered " + extra.describe()
          + story + ": a place was given back twice, or an item was never counted in.");
      refused.add("extra-" + (step + 1));
    }

    scene.sink.completeFromNowOn();
    scene.sink.awaitCalls(accepted.size(), IngestScene.WAIT.toMillis());
    Map<String, Integer> given = scene.sink.timesGiven();
    List<String> missing = accepted.stream().filter(n -> !given.containsKey(n)).toList();
    require(missing.isEmpty(), "The service answered 202 to " + accepted + ", but " + missing + " never reached "
        + "the sink, though it stored everything it was given (release order " + orderInWords + ")"
        + scene.sinkCallSite() + ".");
    List<String> again = given.entrySet().stream().filter(e -> e.getValue() > 1)
        .map(e -> e.getKey() + " " + e.getValue() + " times").sorted().toList();
    require(again.isEmpty(), "Each item taken in must reach the sink exactly once, but the sink was given "
        + again + " (item-2 was the one it failed; release order " + orderInWords + ")" + scene.sinkCallSite()
        + ". An item the sink failed is done: it was given its one chance, and its place is free again.");
    List<String> storedRefused = refused.stream().filter(given::containsKey).toList();
    require(storedRefused.isEmpty(), storedRefused + " were refused with 503, but the sink was given them all the "
        + "same" + scene.sinkCallSite() + ".");
    scene.close(vertx);
  }

  /**
   * Finishes {@code name} at the sink (fails it if {@code fails}), and returns the name of the item finished. A
   * design that keeps some items back from the sink (a queue in front of fewer calls) may not have handed
   * {@code name} on yet: then the oldest item the sink holds is finished instead, so that every design goes on.
   */
  private static String finish(IngestScene scene, String name, boolean fails) {
    require(awaitPending(scene), "The service held items it had taken in (202), but the sink had none of them "
        + "within " + IngestScene.WAIT.toSeconds() + " s: an item taken in must go on to the sink.");
    List<String> names = scene.sink.namesGiven();
    List<Integer> pending = scene.sink.pendingCalls();
    int call = pending.stream().filter(i -> names.get(i).equals(name)).findFirst().orElse(pending.get(0));
    if (fails) {
      scene.sink.fail(call, new SinkFailure("disk full (the test's failure of " + names.get(call) + ")"));
    } else {
      scene.sink.complete(call);
    }
    return names.get(call);
  }

  /** Waits until the sink holds a call; the service may hand a waiting item on in a later turn of its loop. */
  private static boolean awaitPending(IngestScene scene) {
    long deadline = System.nanoTime() + IngestScene.WAIT.toNanos();
    while (System.nanoTime() < deadline) {
      if (!scene.sink.pendingCalls().isEmpty()) {
        return true;
      }
      scene.sink.awaitCalls(scene.sink.calls() + 1, 50);
    }
    return false;
  }
}
