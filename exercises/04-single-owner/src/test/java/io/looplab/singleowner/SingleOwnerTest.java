package io.looplab.singleowner;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Points;
import io.looplab.grader.guard.GivenCode;
import io.looplab.grader.testkit.Await;
import io.looplab.grader.testkit.DeployedService;
import io.looplab.grader.testkit.WarmUp;
import io.looplab.legacy.LegacyCatalog;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static io.looplab.grader.testkit.Checks.require;
import static io.looplab.singleowner.LabScene.EASY_TIMEOUT_MS;
import static io.looplab.singleowner.LabScene.EDGE_INSTANCES;
import static io.looplab.singleowner.LabScene.WAIT;
import static io.looplab.singleowner.LabScene.jsonOf;

/**
 * Grades the shape of the application: the stock lives in one ledger that one thread touches, the edge runs as
 * several instances on several event loops and asks the owner over the event bus, and requests racing in from all
 * of them lose nothing. Every HTTP request opens a connection of its own, so the edge's instances share the work.
 */
@GradedVertxTest
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@GivenCode(value = StockLedger.class, is = "the stock counts, a plain HashMap (given)")
@GivenCode(value = Protocol.class, is = "the event-bus protocol (given)")
@GivenCode(value = LegacyCatalog.class, is = "the legacy catalog's synchronous client: it blocks until the old server answers")
@Order(2)
@DisplayName("04 single owner: one thread owns the stock, the edges ask it")
class SingleOwnerTest {

  private static final int REQUESTS = 8;

  @RegisterExtension
  final LabScene scene = new LabScene();

  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(LabScene::warmUp);
  }

  /** Deploys LabApp with {@code apples} in stock and sends {@code requests} reserves at once. */
  private List<HttpResponse<Buffer>> reserveAtOnce(Vertx vertx, int apples, int requests) {
    return reserveAtOnce(vertx, LabScene.config(EASY_TIMEOUT_MS, new JsonObject().put("apple", apples)), requests);
  }

  /** Deploys LabApp with {@code config} and sends {@code requests} reserves of an apple at once. */
  private List<HttpResponse<Buffer>> reserveAtOnce(Vertx vertx, JsonObject config, int requests) {
    scene.recordSendersTo(vertx, Protocol.STOCK);
    DeployedService app = scene.deployApp(vertx, config);
    List<Future<HttpResponse<Buffer>>> sent = new ArrayList<>();
    IntStream.range(0, requests).forEach(i -> sent.add(app.post("/stock/apple/reserve")));
    return Await.results(sent, WAIT, requests + " reserves were sent at once to POST /stock/apple/reserve, and not "
        + "all of them were answered within " + Await.inWords(WAIT) + ".");
  }

  @Test
  @Order(1)
  @Points(3)
  @DisplayName("the stock is kept in one ledger, and only one thread, the owner's, ever touches it")
  void oneThreadTouchesTheStock(Vertx vertx) {
    reserveAtOnce(vertx, 20, REQUESTS);
    List<StockLedger> ledgers = StockLedger.created();
    require(!ledgers.isEmpty(), "LabApp answered " + REQUESTS + " reserves but never created a StockLedger: keep the "
        + "stock in the given StockLedger, created by the owner verticle in its start().");
    for (StockLedger ledger : ledgers) {
      Set<String> threads = new TreeSet<>(ledger.touchedBy());
      require(threads.size() <= 1, "The stock ledger was touched by " + threads.size() + " threads: " + threads
          + ". Its HashMap is then shared state: two threads reading and writing it at once lose updates or see a "
          + "broken map. Only the owner may touch it, on its one event loop; the edge's instances must ask the owner "
          + "with eventBus().request(Protocol.STOCK, ...) instead of reading the ledger (or a map) themselves, and "
          + "the owner must not hand the work to other threads.");
    }
    require(ledgers.size() == 1, "Deploying LabApp created " + ledgers.size() + " StockLedgers, so the stock was "
        + "split between " + ledgers.size() + " copies, each with its own counts. Deploy the owner once (one "
        + "instance), and let everything else ask it over the event bus.");
    require(!ledgers.get(0).touchedBy().isEmpty(), "LabApp created a StockLedger, but none of the " + REQUESTS
        + " reserves touched it: the owner must answer them from its ledger.");
  }

  @Test
  @Order(2)
  @Points(2)
  @DisplayName("the edge runs as edge.instances instances, on several event loops, and each asks the owner over the event bus")
  void theEdgesAskFromSeveralLoops(Vertx vertx) {
    // 3, not the default 4: an edge count that ignores the config must not pass. Every request opens a connection
    // of its own, and Vert.x hands a shared port's connections round the instances: 12 reach each instance 4 times.
    int instances = 3;
    int requests = 4 * instances;
    reserveAtOnce(vertx, LabScene.config(EASY_TIMEOUT_MS, new JsonObject().put("apple", requests))
        .put("edge.instances", instances), requests);
    List<String> senders = scene.senders();
    require(senders.size() >= requests, requests + " reserves reached the edge, but only " + senders.size()
        + " message(s) were sent to " + Protocol.STOCK + ". Each request must ask the owner over the event bus.");
    Set<String> loops = new TreeSet<>(senders);
    require(loops.size() >= 2, requests + " reserves, each on a connection of its own, were all asked of the owner "
        + "from one thread: " + loops + ". Deploy HttpEdge with config edge.instances instances (DeploymentOptions"
        + ".setInstances): each instance gets an event loop of its own and a share of the connections, so the edge "
        + "uses every core while the owner still keeps the state alone.");
    int asking = scene.senderInstances();
    require(asking == instances, requests + " reserves, each on a connection of its own, were asked of the owner by "
        + asking + " edge instances, although the config's edge.instances was " + instances + ". Deploy as many "
        + "instances as config().getInteger(\"edge.instances\", 4) says: the operator sizes the edge to the "
        + "machine, and a constant of your own overrules that choice.");
  }

  @Test
  @Order(3)
  @Points(3)
  @DisplayName("20 reserves racing in through every edge instance against 12 apples: 12 succeed, 8 get 409, none lost")
  void racingReservesLoseNothing(Vertx vertx) {
    List<HttpResponse<Buffer>> answers = reserveAtOnce(vertx, 12, 20);
    List<Integer> lefts = new ArrayList<>();
    int refused = 0;
    List<String> others = new ArrayList<>();
    for (HttpResponse<Buffer> answer : answers) {
      if (answer.statusCode() == 200) {
        lefts.add(jsonOf(answer, "POST /stock/apple/reserve").getInteger("left"));
      } else if (answer.statusCode() == 409) {
        LabScene.errorOf(answer, "POST /stock/apple/reserve, answered 409,");
        refused++;
      } else {
        others.add(answer.statusCode() + " " + answer.bodyAsString());
      }
    }
    require(others.isEmpty(), "Each reserve should answer 200 or 409 (out of stock), but " + others.size() + " of 20 "
        + "answered otherwise, such as: " + (others.isEmpty() ? "" : others.get(0)));
    Set<Integer> distinct = new TreeSet<>(lefts);
    require(lefts.size() == 12 && refused == 8 && distinct.equals(new TreeSet<>(IntStream.range(0, 12).boxed().toList())),
        "20 reserves raced for 12 apples through " + EDGE_INSTANCES + " edge instances: " + lefts.size()
            + " succeeded, with \"left\" counts " + lefts + ", and " + refused + " got 409. Exactly 12 should "
            + "succeed, each leaving a different count from 11 down to 0, and 8 should get 409. Anything else is an "
            + "apple sold twice or lost: the stock was updated from several threads or kept in several copies.");
    HttpResponse<Buffer> counted = Await.result(scene.deployedApp().get("/stock/apple"), WAIT,
        "GET /stock/apple did not answer within " + Await.inWords(WAIT) + ".");
    require(Integer.valueOf(0).equals(jsonOf(counted, "GET /stock/apple").getInteger("left")), "After 12 apples "
        + "were sold, GET /stock/apple answered " + counted.bodyAsString() + " instead of 0 left.");
  }
}
