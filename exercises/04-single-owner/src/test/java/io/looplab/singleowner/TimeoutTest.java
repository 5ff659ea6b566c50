package io.looplab.singleowner;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Points;
import io.looplab.grader.guard.GivenCode;
import io.looplab.grader.races.PendingTimers;
import io.looplab.grader.testkit.Await;
import io.looplab.grader.testkit.DeployedService;
import io.looplab.grader.testkit.WarmUp;
import io.looplab.legacy.LegacyCatalog;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static io.looplab.grader.testkit.Checks.require;
import static io.looplab.singleowner.LabScene.EASY_TIMEOUT_MS;
import static io.looplab.singleowner.LabScene.WAIT;
import static io.looplab.singleowner.LabScene.bodyOf;

/**
 * Grades the edge's timeout: an answer that never comes is a 503 with a reason within the config's timeout.ms (here
 * 300 ms; Vert.x's own default is 30 s), and nothing is left behind, neither after a timeout nor after an answer that
 * came in time. The silent owner is the test's: a consumer at Protocol.STOCK that takes every request and never
 * answers.
 */
@GradedVertxTest
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@GivenCode(value = StockLedger.class, is = "the stock counts, a plain HashMap (given)")
@GivenCode(value = Protocol.class, is = "the event-bus protocol (given)")
@GivenCode(value = LegacyCatalog.class, is = "the legacy catalog's synchronous client: it blocks until the old server answers")
@Order(4)
@DisplayName("04 single owner: an answer that never comes is a 503 within the timeout, and leaves nothing behind")
class TimeoutTest {

  /** The edge's timeout in this class: short, so that a 30 s default can never pass for it. */
  private static final long SHORT_TIMEOUT_MS = 300;

  /**
   * How late after its timeout a 503 may come: 1.5 s, thirty times the guard's stall rule, room for a loaded
   * machine, and still less than the edge's own default of 2 s, so an edge that ignores timeout.ms is seen.
   */
  private static final long LATE_MS = 1_500;

  /** The other edge's timeout, side by side with the short one: far from it, and from any default of 1 or 2 s. */
  private static final long LONG_TIMEOUT_MS = 2_500;

  @RegisterExtension
  final LabScene scene = new LabScene();

  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(LabScene::warmUp);
  }

  /** Checks a 503 with a reason, then that no reply handler or timer outlived it. */
  private void assertTimedOut(Vertx vertx, Future<HttpResponse<Buffer>> request, long sentAt, String what) {
    assertTimedOut(timed(request, sentAt), SHORT_TIMEOUT_MS, what);
    assertNothingLeft(vertx, what);
  }

  /** An HTTP answer and how long after {@code sentAt} it came, taken the moment it comes. */
  private record Timed(HttpResponse<Buffer> answer, long tookMs) {
  }

  private static Future<Timed> timed(Future<HttpResponse<Buffer>> request, long sentAt) {
    return request.map(answer -> new Timed(answer, (System.nanoTime() - sentAt) / 1_000_000));
  }

  /** Checks a 503 with a JSON reason, no sooner than {@code timeoutMs} and at most {@link #LATE_MS} later. */
  private static void assertTimedOut(Future<Timed> request, long timeoutMs, String what) {
    Timed timed = Await.result(request, WAIT, what + " got no answer within " + Await.inWords(WAIT)
        + ", although the edge's timeout.ms was " + timeoutMs + ". Vert.x waits 30 s for a reply unless "
        + "told otherwise: give the request its timeout, new DeliveryOptions().setSendTimeout(timeout.ms), and "
        + "answer the TIMEOUT failure with a 503.");
    HttpResponse<Buffer> answer = timed.answer();
    long tookMs = timed.tookMs();
    String body = bodyOf(answer);
    require(answer.statusCode() == 503, what + " should answer 503 (service unavailable) after " + timeoutMs
        + " ms without an answer, but answered " + answer.statusCode() + " " + body + ".");
    require(!body.isBlank() && !body.trim().equalsIgnoreCase("Service Unavailable"), what + " answered 503, but its "
        + "body gives no reason: \"" + body + "\". Say what did not answer, and within how long.");
    LabScene.errorOf(answer, what + " answered 503,");
    String fromConfig = "Take the timeout from this instance's config().getLong(\"timeout.ms\", ...), keep it in an "
        + "instance field (a static one is shared by every HttpEdge in the JVM, whatever its config), and put it on "
        + "the request: the caller, not your default, decides how long it can wait.";
    require(tookMs >= timeoutMs * 4 / 5, what + " answered 503 after " + tookMs + " ms, although the config's "
        + "timeout.ms was " + timeoutMs + ": wait for the answer until timeout.ms, not less. " + fromConfig);
    require(tookMs <= timeoutMs + LATE_MS, what + " answered 503 after " + tookMs + " ms, although the config's "
        + "timeout.ms was " + timeoutMs + ". " + fromConfig);
  }

  private static void assertNothingLeft(Vertx vertx, String what) {
    List<String> left = new ArrayList<>(ReplyHandlers.pending(vertx));
    left.addAll(PendingTimers.of(vertx));
    require(left.isEmpty(), what + " answered 503, but left behind: " + left + ". A caller that gave up must not "
        + "leave a reply handler (and its 30 s timer) waiting for an answer nobody reads: under load they pile up. "
        + "Put the timeout on the request itself (DeliveryOptions.setSendTimeout): then Vert.x removes the reply "
        + "handler when it fails the request.");
  }

  @Test
  @Order(1)
  @Points(3)
  @DisplayName("when the owner never answers, the caller gets a 503 with a reason within the timeout, and no reply handler or timer is left")
  void silentOwnerMeansA503(Vertx vertx) {
    List<Message<JsonObject>> taken = new CopyOnWriteArrayList<>();
    Await.result(vertx.eventBus().<JsonObject>consumer(Protocol.STOCK, taken::add).completion(), WAIT,
        "The test could not register its silent owner.");
    DeployedService edge = scene.deploy(vertx, new HttpEdge(), new DeploymentOptions()
        .setConfig(LabScene.config(SHORT_TIMEOUT_MS, new JsonObject())), "HttpEdge");

    long sentAt = System.nanoTime();
    Future<HttpResponse<Buffer>> counted = edge.get("/stock/apple");
    assertTimedOut(vertx, counted, sentAt, "GET /stock/apple, with an owner that never answers,");
    require(!taken.isEmpty(), "GET /stock/apple answered 503, but the owner never received a request: the edge "
        + "must ask the owner over the event bus at " + Protocol.STOCK + ".");
  }

  @Test
  @Order(2)
  @Points(3)
  @DisplayName("two edges deployed with different timeout.ms side by side each wait their own, for the stock and the catalog")
  void eachEdgeWaitsItsOwnTimeout(Vertx vertx) {
    for (String address : List.of(Protocol.STOCK, Protocol.CATALOG)) {
      Await.result(vertx.eventBus().<JsonObject>consumer(address, message -> { }).completion(), WAIT,
          "The test could not register its silent consumer at " + address + ".");
    }
    // The long one first: an edge that keeps its timeout in a static would give it the short one's, deployed last.
    // Its lower bound is what tells a timeout of one's own (1 s, 2 s) from timeout.ms: timers never fire early.
    Map<Long, DeployedService> edges = new LinkedHashMap<>();
    for (long timeoutMs : new long[] {LONG_TIMEOUT_MS, SHORT_TIMEOUT_MS}) {
      edges.put(timeoutMs, scene.deploy(vertx, new HttpEdge(), new DeploymentOptions()
          .setConfig(LabScene.config(timeoutMs, new JsonObject())), "HttpEdge with timeout.ms " + timeoutMs));
    }
    long sentAt = System.nanoTime();
    Map<String, Future<Timed>> asked = new LinkedHashMap<>();
    Map<String, Long> timeoutOf = new LinkedHashMap<>();
    for (long timeoutMs : new long[] {SHORT_TIMEOUT_MS, LONG_TIMEOUT_MS}) {
      for (String path : List.of("/stock/apple", "/catalog/pear")) {
        String what = "GET " + path + ", at the edge deployed with timeout.ms " + timeoutMs + " (another edge has "
            + (timeoutMs == SHORT_TIMEOUT_MS ? LONG_TIMEOUT_MS : SHORT_TIMEOUT_MS) + "), with nobody answering,";
        asked.put(what, timed(edges.get(timeoutMs).get(path), sentAt));
        timeoutOf.put(what, timeoutMs);
      }
    }
    asked.forEach((what, request) -> assertTimedOut(request, timeoutOf.get(what), what));
    assertNothingLeft(vertx, "Each of 4 requests");
  }

  @Test
  @Order(3)
  @Points(2)
  @DisplayName("when the legacy catalog hangs, the caller gets a 503 with a reason within the timeout")
  void hangingCatalogMeansA503(Vertx vertx) {
    DeployedService app = scene.deployApp(vertx, LabScene.config(SHORT_TIMEOUT_MS, new JsonObject()));
    long sentAt = System.nanoTime();
    Future<HttpResponse<Buffer>> pear = app.get("/catalog/pear");
    scene.catalog.requireLookups(1, pear, "GET /catalog/pear", WAIT);
    // The test never answers this lookup (until the test is over): the old server hangs.
    assertTimedOut(vertx, pear, sentAt, "GET /catalog/pear, with a legacy catalog that hangs,");
  }

  @Test
  @Order(4)
  @Points(2)
  @DisplayName("an answer that comes in time leaves no reply handler or timer behind")
  void anAnswerInTimeLeavesNothing(Vertx vertx) {
    DeployedService app = scene.deployApp(vertx, LabScene.config(EASY_TIMEOUT_MS, new JsonObject().put("apple", 3)));
    for (String path : List.of("/stock/apple", "/stock/pear")) {
      HttpResponse<Buffer> answer = Await.result(app.get(path), WAIT, "GET " + path + " did not answer within "
          + Await.inWords(WAIT) + ".");
      require(answer.statusCode() == 200, "GET " + path + " answered " + answer.statusCode() + " " + bodyOf(answer)
          + " instead of 200.");
    }
    List<String> left = new ArrayList<>(ReplyHandlers.pending(vertx));
    left.addAll(PendingTimers.of(vertx));
    require(left.isEmpty(), "Two requests were answered in time, but still pending afterwards: " + left + ". A "
        + "timeout of your own (a timer) must be cancelled when the answer comes, or it fires " + EASY_TIMEOUT_MS
        + " ms later on a request long finished, and timers pile up under load. The request's own timeout "
        + "(DeliveryOptions.setSendTimeout) cleans up after itself.");
  }
}
