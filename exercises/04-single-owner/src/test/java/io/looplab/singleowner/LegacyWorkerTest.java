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
  @Points(4)
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
  }

  @Test
  @Order(3)
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
    require(answer.statusCode() == 502 && bodyOf(answer).contains(reason), "The legacy catalog failed the lookup "
        + "for plum with \"" + reason + "\", so GET /catalog/plum should answer 502 with that reason in its body, but "
        + "it answered " + answer.statusCode() + " " + bodyOf(answer) + ". Map the failure code LEGACY_FAILED to "
        + "502 (bad gateway: the server behind us failed) and pass the reason on.");
  }

  @Test
  @Order(4)
  @Points(2)
  @DisplayName("the catalog worker refuses an unknown action with the code UNKNOWN_ACTION")
  void unknownCatalogActionIsRefused(Vertx vertx) {
    deployApp(vertx);
    String expected = "Refuse it with message.fail(Protocol.UNKNOWN_ACTION, reason), at once.";
    ReplyException refused = refusal(ask(vertx, CATALOG, "reserve", "plum"), "A \"reserve\" request to " + CATALOG,
        expected);
    require(refused.failureType() == ReplyFailure.RECIPIENT_FAILURE && refused.failureCode() == UNKNOWN_ACTION,
        "A \"reserve\" request to " + CATALOG + " failed with " + refused.failureType() + ", code "
            + refused.failureCode() + ", message \"" + refused.getMessage() + "\", instead of RECIPIENT_FAILURE, "
            + "code " + UNKNOWN_ACTION + ". " + expected);
    require(catalog.calls().isEmpty(), "A \"reserve\" request to " + CATALOG + " reached the legacy catalog as "
        + "a lookup: only " + DESCRIBE + " may.");
  }
}
