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
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.opentest4j.AssertionFailedError;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.looplab.grader.testkit.Checks.require;
import static io.looplab.singleowner.LabScene.EASY_TIMEOUT_MS;
import static io.looplab.singleowner.LabScene.WAIT;
import static io.looplab.singleowner.LabScene.ask;
import static io.looplab.singleowner.LabScene.bodyOf;
import static io.looplab.singleowner.LabScene.jsonOf;
import static io.looplab.singleowner.LabScene.refusal;
import static io.looplab.singleowner.Protocol.CATALOG;
import static io.looplab.singleowner.Protocol.DESCRIBE;
import static io.looplab.singleowner.Protocol.LEGACY_FAILED;
import static io.looplab.singleowner.Protocol.UNKNOWN_ACTION;

/**
 * Grades the worker verticle around the blocking legacy catalog, deployed by LabApp: its calls run on a worker
 * thread, reached by request-reply, while the event loops go on serving; its failures travel with their code. The
 * catalog server is a {@link HeldCatalog}: every lookup blocks until this test answers or fails it.
 */
@GradedVertxTest
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@GivenCode(value = StockLedger.class, is = "the stock counts, a plain HashMap (given)")
@GivenCode(value = Protocol.class, is = "the event-bus protocol (given)")
@GivenCode(value = LegacyCatalog.class, is = "the legacy catalog's synchronous client: it blocks until the old server answers")
@Order(3)
@DisplayName("04 single owner: a worker verticle wraps the blocking legacy client")
class LegacyWorkerTest {

  @RegisterExtension
  final LabScene scene = new LabScene();
  private final HeldCatalog catalog = scene.catalog;

  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(LabScene::warmUp);
  }

  private DeployedService deployApp(Vertx vertx) {
    return scene.deployApp(vertx, LabScene.config(EASY_TIMEOUT_MS, new JsonObject().put("apple", 3)));
  }

  private void awaitLookups(int count, String after, Future<?> request) {
    catalog.requireLookups(count, request, after, WAIT);
  }

  @Test
  @Order(1)
  @Points(3)
  @DisplayName("a catalog lookup runs on a worker thread, reached over the event bus, while the loops keep serving")
  void lookupRunsOnAWorkerWhileTheLoopsServe(Vertx vertx) {
    scene.recordSendersTo(vertx, CATALOG);
    DeployedService app = deployApp(vertx);
    Future<HttpResponse<Buffer>> pear = app.get("/catalog/pear");
    awaitLookups(1, "GET /catalog/pear", pear);
    HeldCatalog.Call call = catalog.calls().get(0);
    require(!call.onEventLoop(), "The legacy lookup, " + call.callSite() + ", ran on the event loop " + call.thread()
        + ", and that loop waits with it: so does every request it serves. "
        + "Deploy CatalogWorker as a worker verticle (ThreadingModel.WORKER), or run the call with executeBlocking.");
    require(!scene.senders().isEmpty(), "The legacy lookup ran, on " + call.thread() + ", but no message was sent "
        + "to " + CATALOG + ": the edge must ask the catalog worker over the event bus (request-reply), not call the "
        + "legacy client itself. The client is not thread-safe; only its one worker may use it.");

    // The lookup is still held: the edge and the owner must answer meanwhile.
    HttpResponse<Buffer> stock = Await.result(app.get("/stock/apple"), WAIT, "While a catalog lookup waited for the "
        + "old server, GET /stock/apple got no answer within " + Await.inWords(WAIT) + ": something waits for the "
        + "legacy client where it should not.");
    require(stock.statusCode() == 200, "While a catalog lookup was held, GET /stock/apple answered "
        + stock.statusCode() + " " + stock.bodyAsString() + " instead of 200.");

    catalog.answer(0);
    HttpResponse<Buffer> described = Await.result(pear, WAIT, "The old catalog answered the lookup for pear, but GET "
        + "/catalog/pear did not answer within " + Await.inWords(WAIT) + ".");
    JsonObject expected = new JsonObject().put("item", "pear").put("description", HeldCatalog.descriptionOf("pear"));
    require(described.statusCode() == 200 && expected.equals(jsonOf(described, "GET /catalog/pear")),
        "GET /catalog/pear should answer 200 " + expected + " once the catalog answered, but answered "
            + described.statusCode() + " " + described.bodyAsString() + ".");
  }

  @Test
  @Order(2)
  @Points(2)
  @DisplayName("two lookups asked at once reach the legacy client one after the other, each answered with its own item")
  void lookupsRunOneAtATime(Vertx vertx) {
    scene.recordSendersTo(vertx, CATALOG);
    DeployedService app = deployApp(vertx);
    Future<HttpResponse<Buffer>> pear = app.get("/catalog/pear");
    Future<HttpResponse<Buffer>> fig = app.get("/catalog/fig");
    awaitLookups(1, "GET /catalog/pear and GET /catalog/fig, sent at once,", Future.any(pear, fig));
    require(scene.awaitSenders(2, WAIT), "GET /catalog/pear and GET /catalog/fig were sent at once, but only "
        + scene.senders().size() + " message(s) reached " + CATALOG + " within " + Await.inWords(WAIT) + ": each "
        + "request must ask the catalog worker over the event bus.");
    // Both requests are at the worker and the first lookup is held. A second lookup that does not wait its turn
    // comes within milliseconds; 1 s is a wide margin on a loaded machine, and a correct worker never gets there.
    HeldCatalog.Call first = catalog.calls().get(0);
    if (catalog.lookupsArrive(2, Duration.ofSeconds(1))) {
      HeldCatalog.Call overlapping = catalog.calls().get(1);
      throw new AssertionFailedError("Two lookups were inside the legacy client at once: " + first.item() + " on "
          + first.thread() + ", and " + overlapping.item() + " on " + overlapping.thread() + " ("
          + overlapping.callSite() + ") before the first was answered. LegacyCatalog is not thread-safe: one call at "
          + "a time. A worker verticle (one instance) runs its handlers one after the other; executeBlocking must "
          + "keep them ordered.");
    }
    catalog.answer(0);
    awaitLookups(2, "the answer to the first lookup, for " + first.item(), "pear".equals(first.item()) ? fig : pear);
    HeldCatalog.Call second = catalog.calls().get(1);
    require(second.alongside().isEmpty(), "The lookup for " + second.item() + " began while " + second.alongside()
        + " was still inside the legacy client: two calls at once, and the client takes one call at a time.");
    catalog.answer(1);
    for (var request : List.of(Map.entry("pear", pear), Map.entry("fig", fig))) {
      String item = request.getKey();
      HttpResponse<Buffer> answer = Await.result(request.getValue(), WAIT, "The old catalog answered both lookups, "
          + "but GET /catalog/" + item + " did not answer within " + Await.inWords(WAIT) + ".");
      JsonObject expected = new JsonObject().put("item", item).put("description", HeldCatalog.descriptionOf(item));
      require(answer.statusCode() == 200 && expected.equals(jsonOf(answer, "GET /catalog/" + item)), "GET /catalog/"
          + item + ", asked alongside another item, should answer 200 " + expected + ", but answered "
          + answer.statusCode() + " " + answer.bodyAsString() + ".");
    }
  }

  @Test
  @Order(3)
  @Points(3)
  @DisplayName("a legacy failure travels back as a ReplyException with the code LEGACY_FAILED and its reason")
  void legacyFailureTravelsWithItsCode(Vertx vertx) {
    deployApp(vertx);
    var asked = ask(vertx, CATALOG, DESCRIBE, "plum");
    awaitLookups(1, "a " + DESCRIBE + " request to " + CATALOG, asked);
    String reason = "catalog disk unreadable";
    catalog.fail(0, reason);
    String expected = "Catch the LegacyCatalogException and answer message.fail(Protocol.LEGACY_FAILED, its "
        + "message): the caller must learn that the catalog failed, and why.";
    ReplyException refused = refusal(asked, "A lookup the legacy catalog failed (\"" + reason + "\")", expected);
    require(refused.failureType() == ReplyFailure.RECIPIENT_FAILURE && refused.failureCode() == LEGACY_FAILED
            && String.valueOf(refused.getMessage()).contains(reason),
        "A lookup the legacy catalog failed with \"" + reason + "\" came back as " + refused.failureType() + ", code "
            + refused.failureCode() + ", message \"" + refused.getMessage() + "\", instead of RECIPIENT_FAILURE, "
            + "code " + LEGACY_FAILED + " (Protocol.LEGACY_FAILED), with the reason in the message. " + expected);

    // A failure is one lookup's: the next one must reach the old server again, through the same client.
    var fig = ask(vertx, CATALOG, DESCRIBE, "fig");
    require(catalog.lookupsArrive(2, fig, WAIT), "After the failure of the lookup for plum, a " + DESCRIBE + " of fig "
        + (fig.isComplete() ? "was answered without reaching the legacy catalog: " + (fig.succeeded()
        ? fig.result().body() : "failed with \"" + fig.cause().getMessage() + "\"") : "never reached the legacy "
        + "catalog within " + Await.inWords(WAIT)) + ". One failed lookup must not end the worker's service: keep the "
        + "client open (it is closed in stop(), once), and keep answering.");
    catalog.answer(1);
    JsonObject described = LabScene.answerOf(fig, "After the failure, a " + DESCRIBE + " of fig that the catalog "
        + "answered");
    JsonObject expectedFig = new JsonObject().put("item", "fig").put("description", HeldCatalog.descriptionOf("fig"));
    require(expectedFig.equals(described), "After the failure, a " + DESCRIBE + " of fig should answer "
        + expectedFig + ", but answered " + described + ".");
  }

  @Test
  @Order(4)
  @Points(2)
  @DisplayName("at the HTTP edge, a legacy failure is a 502 whose body gives the reason")
  void legacyFailureIsA502(Vertx vertx) {
    DeployedService app = deployApp(vertx);
    Future<HttpResponse<Buffer>> plum = app.get("/catalog/plum");
    awaitLookups(1, "GET /catalog/plum", plum);
    String reason = "catalog disk unreadable";
    catalog.fail(0, reason);
    HttpResponse<Buffer> answer = Await.result(plum, WAIT, "The legacy catalog failed the lookup for plum, and GET "
        + "/catalog/plum had no answer within " + Await.inWords(WAIT) + ": the failure was lost on the way.");
    require(answer.statusCode() == 502, "The legacy catalog failed the lookup for plum with \"" + reason + "\", so "
        + "GET /catalog/plum should answer 502, but it answered " + answer.statusCode() + " " + bodyOf(answer)
        + ". Map the failure code LEGACY_FAILED to 502 (bad gateway: the server behind us failed).");
    String error = LabScene.errorOf(answer, "GET /catalog/plum, answered 502,");
    require(error.contains(reason), "The legacy catalog failed the lookup for plum with \"" + reason + "\", so GET "
        + "/catalog/plum should answer 502 with that reason in its body, but it answered 502 " + bodyOf(answer)
        + ". Pass the reason on: the ReplyException's message is the catalog's own.");
  }

  @Test
  @Order(5)
  @Points(2)
  @DisplayName("the catalog worker refuses an unknown action with the code UNKNOWN_ACTION")
  void unknownCatalogActionIsRefused(Vertx vertx) {
    deployApp(vertx);
    String expected = "Refuse it with message.fail(Protocol.UNKNOWN_ACTION, reason), at once, and call the legacy "
        + "client only for " + DESCRIBE + ".";
    for (String action : new String[] {Protocol.RESERVE, "lookup", "", null}) {
      String what = "A request to " + CATALOG + " with " + (action == null ? "no action header" : "the action \""
          + action + "\"");
      var asked = ask(vertx, CATALOG, action, "plum");
      // A lookup made for it blocks until the test answers: tell it from a refusal as soon as either happens.
      if (catalog.lookupsArrive(1, asked, WAIT)) {
        throw new AssertionFailedError(what + " reached the legacy catalog as a lookup ("
            + catalog.calls().get(0).callSite() + "): only " + DESCRIBE + " may. " + expected);
      }
      ReplyException refused = refusal(asked, what, expected);
      require(refused.failureType() == ReplyFailure.RECIPIENT_FAILURE && refused.failureCode() == UNKNOWN_ACTION,
          what + " failed with " + refused.failureType() + ", code " + refused.failureCode() + ", message \""
              + refused.getMessage() + "\", instead of RECIPIENT_FAILURE, code " + UNKNOWN_ACTION
              + " (Protocol.UNKNOWN_ACTION). " + expected);
    }
  }
}
