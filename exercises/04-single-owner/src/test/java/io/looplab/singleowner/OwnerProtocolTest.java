package io.looplab.singleowner;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Points;
import io.looplab.grader.guard.GivenCode;
import io.looplab.grader.testkit.Await;
import io.looplab.grader.testkit.WarmUp;
import io.looplab.legacy.LegacyCatalog;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.concurrent.TimeUnit;

import static io.looplab.grader.testkit.Checks.require;
import static io.looplab.singleowner.LabScene.WAIT;
import static io.looplab.singleowner.LabScene.ask;
import static io.looplab.singleowner.LabScene.refusal;
import static io.looplab.singleowner.Protocol.COUNT;
import static io.looplab.singleowner.Protocol.OUT_OF_STOCK;
import static io.looplab.singleowner.Protocol.RESERVE;
import static io.looplab.singleowner.Protocol.STOCK;
import static io.looplab.singleowner.Protocol.UNKNOWN_ACTION;

/**
 * Grades StockOwner on its own, over the event bus, as the edge would talk to it: the answers, the failure a caller
 * can act on, and the refusal of a command it does not know. The test deploys one instance, with 2 apples.
 */
@GradedVertxTest
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@GivenCode(value = StockLedger.class, is = "the stock counts, a plain HashMap (given)")
@GivenCode(value = Protocol.class, is = "the event-bus protocol (given)")
@GivenCode(value = LegacyCatalog.class, is = "the legacy catalog's synchronous client: it blocks until the old server answers")
@Order(1)
@DisplayName("04 single owner: the owner answers over the event bus, and refuses with a code")
class OwnerProtocolTest {

  @RegisterExtension
  final LabScene scene = new LabScene();

  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(LabScene::warmUp);
  }

  private void deployOwner(Vertx vertx) {
    deployOwner(vertx, new JsonObject().put("apple", 2));
  }

  private void deployOwner(Vertx vertx, JsonObject stock) {
    scene.deploy(vertx, new StockOwner(), new DeploymentOptions().setConfig(new JsonObject().put("stock", stock)),
        "StockOwner");
  }

  @Test
  @Order(1)
  @Points(2)
  @DisplayName("reserve and count are answered over the event bus with the count left")
  void reserveAndCountAreAnswered(Vertx vertx) {
    deployOwner(vertx);
    JsonObject reserved = LabScene.answerOf(ask(vertx, STOCK, RESERVE, "apple"),
        "A reserve of an apple at " + STOCK + ", with 2 in stock,");
    require(new JsonObject().put("item", "apple").put("left", 1).equals(reserved), "The stock held 2 apples; a "
        + "reserve of one at " + STOCK + " should answer {\"item\":\"apple\",\"left\":1}, but answered " + reserved
        + ".");
    JsonObject counted = LabScene.answerOf(ask(vertx, STOCK, COUNT, "apple"), "A count of apples at " + STOCK);
    require(new JsonObject().put("item", "apple").put("left", 1).equals(counted), "After one reserve of 2 "
        + "apples, a count should answer {\"item\":\"apple\",\"left\":1}, but answered " + counted + ".");
  }

  @Test
  @Order(2)
  @Points(2)
  @DisplayName("a reserve with nothing left fails with the code OUT_OF_STOCK, and takes nothing")
  void outOfStockFailsWithItsCode(Vertx vertx) {
    deployOwner(vertx);
    for (int i = 0; i < 2; i++) {
      LabScene.answerOf(ask(vertx, STOCK, RESERVE, "apple"), "Reserve number " + (i + 1) + " of 2 apples");
    }
    String expected = "With no apple left, the owner must refuse: message.fail(Protocol.OUT_OF_STOCK, reason), so that "
        + "the caller gets a ReplyException it can act on (the edge answers 409).";
    ReplyException refused = refusal(ask(vertx, STOCK, RESERVE, "apple"), "A third reserve of 2 apples", expected);
    require(refused.failureType() == ReplyFailure.RECIPIENT_FAILURE && refused.failureCode() == OUT_OF_STOCK,
        "A third reserve of 2 apples failed with " + refused.failureType() + ", code " + refused.failureCode()
            + (refused.failureType() == ReplyFailure.TIMEOUT ? " (nobody answered: was the failure swallowed?)" : "")
            + ", message \"" + refused.getMessage() + "\", but it should fail with RECIPIENT_FAILURE and code "
            + OUT_OF_STOCK + " (Protocol.OUT_OF_STOCK). " + expected);
    JsonObject counted = LabScene.answerOf(ask(vertx, STOCK, COUNT, "apple"), "A count after the refused reserve");
    require(Integer.valueOf(0).equals(counted.getInteger("left")), "After the refused reserve, the count should "
        + "still be 0 apples left, but it answered " + counted + ": a refused request must change nothing.");
  }

  @Test
  @Order(3)
  @Points(2)
  @DisplayName("each item has its own stock: apples running out refuses apples, not pears")
  void eachItemHasItsOwnStock(Vertx vertx) {
    deployOwner(vertx, new JsonObject().put("apple", 1).put("pear", 2));
    String stock = "With 1 apple and 2 pears in stock, ";
    require(left(vertx, RESERVE, "apple") == 0, stock + "a reserve of the apple should leave 0 apples.");
    ReplyException refused = refusal(ask(vertx, STOCK, RESERVE, "apple"), stock + "a second reserve of an apple",
        "With no apple left, the owner must refuse it with Protocol.OUT_OF_STOCK.");
    require(refused.failureCode() == OUT_OF_STOCK, stock + "a second reserve of an apple failed with "
        + refused.failureType() + ", code " + refused.failureCode() + ", instead of OUT_OF_STOCK.");
    String expected = "The stock of each item is its own: the ledger counts each item apart, and no field or flag of "
        + "the owner may stand for all items at once.";
    var pearReserve = Await.outcome(ask(vertx, STOCK, RESERVE, "pear"), WAIT.plusSeconds(1), stock + "a reserve of "
        + "a pear got no answer within " + Await.inWords(WAIT) + ".");
    require(pearReserve.succeeded(), stock + "after the apples ran out, a reserve of a pear (2 in stock) failed with "
        + describe(pearReserve.cause()) + ". " + expected);
    JsonObject pear = pearReserve.result().body();
    require(new JsonObject().put("item", "pear").put("left", 1).equals(pear), stock + "after the apples ran out, a "
        + "reserve of a pear should answer {\"item\":\"pear\",\"left\":1}, but answered " + pear + ". " + expected);
    int apples = left(vertx, COUNT, "apple");
    int pears = left(vertx, COUNT, "pear");
    require(apples == 0 && pears == 1, stock + "after 1 apple and 1 pear were reserved, counts should answer 0 apples "
        + "and 1 pear, but answered " + apples + " apples and " + pears + " pears. " + expected);
  }

  private static String describe(Throwable failure) {
    if (failure instanceof ReplyException reply && reply.failureType() == ReplyFailure.RECIPIENT_FAILURE) {
      String code = switch (reply.failureCode()) {
        case OUT_OF_STOCK -> "OUT_OF_STOCK";
        case UNKNOWN_ACTION -> "UNKNOWN_ACTION";
        default -> "code " + reply.failureCode();
      };
      return code + " (\"" + reply.getMessage() + "\")";
    }
    return String.valueOf(failure);
  }

  /** The "left" of an answer to {@code action} for {@code item}, which must be an answer for that item. */
  private static int left(Vertx vertx, String action, String item) {
    String what = "A " + action + " of " + item + " at " + STOCK;
    JsonObject answer = LabScene.answerOf(ask(vertx, STOCK, action, item), what);
    Integer left = answer.getInteger("left");
    require(item.equals(answer.getString("item")) && left != null, what + " should answer {\"item\":\"" + item
        + "\",\"left\":n}, but answered " + answer + ".");
    return left;
  }

  @Test
  @Order(4)
  @Points(2)
  @DisplayName("an unknown or missing action is refused with the code UNKNOWN_ACTION, not dropped")
  void unknownActionIsRefusedWithACode(Vertx vertx) {
    deployOwner(vertx);
    String expected = "A command the owner does not know must be refused at once with message.fail("
        + "Protocol.UNKNOWN_ACTION, reason): dropped, it leaves the caller waiting for its timeout, and a typo in a "
        + "caller's code looks like a slow owner.";
    for (String action : new String[] {"restock", Protocol.DESCRIBE, "", null}) {
      String what = "A request to " + STOCK + " with " + (action == null ? "no action header" : "the action \""
          + action + "\"");
      ReplyException refused = refusal(ask(vertx, STOCK, action, "apple"), what, expected);
      require(refused.failureType() == ReplyFailure.RECIPIENT_FAILURE && refused.failureCode() == UNKNOWN_ACTION,
          what + " failed with " + refused.failureType() + ", code " + refused.failureCode() + ", message \""
              + refused.getMessage() + "\", but it should fail with RECIPIENT_FAILURE and code " + UNKNOWN_ACTION
              + " (Protocol.UNKNOWN_ACTION). " + expected);
    }
  }
}
