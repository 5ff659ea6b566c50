package io.looplab.singleowner;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;

import java.util.HashMap;
import java.util.Map;

import static io.looplab.singleowner.Protocol.ACTION;
import static io.looplab.singleowner.Protocol.COUNT;
import static io.looplab.singleowner.Protocol.OUT_OF_STOCK;
import static io.looplab.singleowner.Protocol.RESERVE;
import static io.looplab.singleowner.Protocol.STOCK;
import static io.looplab.singleowner.Protocol.UNKNOWN_ACTION;

/**
 * The single owner of the stock. The ledger is a field of this verticle and nobody else holds it: every other
 * verticle asks over the event bus, at {@link Protocol#STOCK}, and every question is answered here, on this
 * verticle's one event loop, one at a time. So the plain HashMap inside the ledger needs no lock.
 */
public class StockOwner extends VerticleBase {

  private StockLedger ledger;

  @Override
  public Future<?> start() {
    Map<String, Integer> initial = new HashMap<>();
    config().getJsonObject("stock", new JsonObject()).forEach(e -> initial.put(e.getKey(), ((Number) e.getValue()).intValue()));
    ledger = new StockLedger(initial);
    // The consumer is registered on this verticle's context: its handler always runs on this one event loop.
    return vertx.eventBus().<JsonObject>consumer(STOCK, this::handle).completion();
  }

  private void handle(Message<JsonObject> message) {
    String action = message.headers().get(ACTION);
    String item = message.body().getString("item");
    if (RESERVE.equals(action)) {
      if (ledger.tryReserve(item)) {
        message.reply(left(item));
      } else {
        // A failure is an answer too: the caller gets a ReplyException whose code says what went wrong.
        message.fail(OUT_OF_STOCK, "out of stock: no " + item + " left");
      }
    } else if (COUNT.equals(action)) {
      message.reply(left(item));
    } else {
      // Every request gets an answer, even one we do not understand: refuse it with a code, never drop it.
      message.fail(UNKNOWN_ACTION, "unknown action '" + action + "' at " + STOCK + ": expected " + RESERVE + " or "
          + COUNT);
    }
  }

  private JsonObject left(String item) {
    return new JsonObject().put("item", item).put("left", ledger.left(item));
  }
}
