package io.looplab.singleowner;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;

import java.util.HashMap;
import java.util.Map;

/**
 * The single owner of the stock. The ledger is a field of this verticle and nobody else may hold it: every other
 * verticle asks over the event bus, at {@link Protocol#STOCK}, and every question is answered here, on this
 * verticle's one event loop, one at a time.
 */
public class StockOwner extends VerticleBase {

  private StockLedger ledger;

  @Override
  public Future<?> start() {
    Map<String, Integer> initial = new HashMap<>();
    config().getJsonObject("stock", new JsonObject()).forEach(e -> initial.put(e.getKey(), ((Number) e.getValue()).intValue()));
    ledger = new StockLedger(initial);
    // TODO: register a consumer at Protocol.STOCK that handles each request with handle(message).
    return Future.succeededFuture();
  }

  private void handle(Message<JsonObject> message) {
    // TODO: read the action header (Protocol.ACTION) and the item from the body, then
    //  - RESERVE: take one unit with ledger.tryReserve; answer {"item", "left"}, or fail with Protocol.OUT_OF_STOCK;
    //  - COUNT: answer {"item", "left"};
    //  - anything else (or no header): fail with Protocol.UNKNOWN_ACTION. Every request gets an answer.
    throw new UnsupportedOperationException("TODO: StockOwner.handle");
  }
}
