package io.looplab.backpressure;

import io.looplab.backpressure.IngestScene.InPieces;
import io.looplab.backpressure.IngestScene.Reply;
import io.looplab.downstream.ItemSink;
import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Points;
import io.looplab.grader.guard.GivenCode;
import io.looplab.grader.testkit.Await;
import io.looplab.grader.testkit.WarmUp;
import io.vertx.core.Vertx;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.looplab.grader.testkit.Checks.require;

/**
 * Grades {@code POST /items} when bodies arrive in pieces, as they do from a slow client: two items whose first
 * halves the service has read, and whose second halves the test sends together, for the one place left. On loopback
 * a 16 KiB body would otherwise arrive in one read, and a service that decides too early, or counts too late, would
 * never show it.
 */
@GradedVertxTest
@Order(8)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@GivenCode(value = ItemSink.class, is = "the slow store behind POST /items")
@DisplayName("08 Backpressure: items whose bodies arrive in pieces")
class ItemInPiecesTest {

  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(SceneWarmUp::steps);
  }

  @Test
  @Order(13)
  @Points(2)
  @DisplayName("two items arriving in pieces for the one place left: exactly one is taken in, whole, and the other "
      + "is refused with 503")
  void itemsArrivingInPiecesShareTheLastPlace(Vertx vertx) {
    IngestScene scene = IngestScene.deploy(vertx, 2);
    Reply first = scene.postAndWait("whole-1");
    require(first.status() == 202, "Into an empty service (limit 2), whole-1 was answered " + first.describe()
        + ".");

    InPieces a = scene.postInPieces("slow-a");
    InPieces b = scene.postInPieces("slow-b");
    Await.outcome(a.firstHalfWritten(), IngestScene.WAIT, "The test's client could not write slow-a's first half.");
    Await.outcome(b.firstHalfWritten(), IngestScene.WAIT, "The test's client could not write slow-b's first half.");
    scene.awaitServiceRead();
    scene.finish(a, b);
    Reply replyA = Await.result(a.reply(), IngestScene.WAIT, "slow-a, whose second half the test sent, got no "
        + "answer within " + Await.inWords(IngestScene.WAIT) + ".");
    Reply replyB = Await.result(b.reply(), IngestScene.WAIT, "slow-b, whose second half the test sent, got no "
        + "answer within " + Await.inWords(IngestScene.WAIT) + ".");
    String story = " (limit 2; whole-1 was in the service, none done; slow-a and slow-b each sent their head and "
        + "half their body, the service read them, and then the test sent both second halves together)";

    List<Reply> both = List.of(replyA, replyB);
    long taken = both.stream().filter(r -> r.status() == 202).count();
    long refused = both.stream().filter(r -> r.status() == 503).count();
    require(taken <= 1, "slow-a was answered " + replyA.describe() + " and slow-b " + replyB.describe() + story
        + ": both were taken in, one more than the limit, and the sink had up to " + scene.sink.maxInFlight()
        + " items at once. Only one place was free. If your code checks the count when a request's head arrives, "
        + "count the item in at that moment: here both heads were checked while both bodies were still arriving, "
        + "and an item counted only once its body is there leaves its place looking free meanwhile. Give the place "
        + "back if the body never comes" + scene.sinkCallSite() + ".");
    require(taken == 1 && refused == 1, "slow-a was answered " + replyA.describe() + " and slow-b "
        + replyB.describe() + story + ": one place was free, so one of them should be taken in (202) and the "
        + "other refused (503).");
    // A design with a queue in front of fewer sink calls hands an item on only when the sink has room: let it.
    scene.sink.completeFromNowOn();
    scene.sink.awaitCalls(2, IngestScene.WAIT.toMillis());
    String takenName = replyA.status() == 202 ? "slow-a" : "slow-b";
    String refusedName = replyA.status() == 202 ? "slow-b" : "slow-a";
    Map<String, Integer> sizes = scene.sink.sizesGiven();
    require(sizes.containsKey(takenName) && !sizes.containsKey(refusedName), "The sink was given " + sizes.keySet()
        + " after " + takenName + " was taken in and " + refusedName + " refused" + story + scene.sinkCallSite()
        + ". Every item taken in reaches the sink (here, once the test let the sink store everything it had), and no "
        + "refused one.");
    require(sizes.get(takenName) == IngestScene.ITEM_BYTES && sizes.get("whole-1") == IngestScene.ITEM_BYTES,
        "The sink was given " + takenName + " as " + sizes.get(takenName) + " bytes and whole-1 as "
            + sizes.get("whole-1") + ", though each was " + IngestScene.ITEM_BYTES + " bytes long" + story + ". "
            + "A body arrives in pieces: hand the sink the whole item, once its last piece has arrived"
            + scene.sinkCallSite() + ".");
  }
}
