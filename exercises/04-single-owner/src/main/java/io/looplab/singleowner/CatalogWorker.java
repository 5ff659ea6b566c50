package io.looplab.singleowner;

import io.looplab.legacy.CatalogBackend;
import io.looplab.legacy.LegacyCatalog;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;

/**
 * Wraps the blocking legacy catalog client and answers {@link Protocol#CATALOG} requests, one at a time: the client
 * blocks, and it is not thread-safe. A failed lookup fails that request only: the next one is served as usual.
 */
public class CatalogWorker extends VerticleBase {

  private final CatalogBackend backend;
  private LegacyCatalog catalog;

  public CatalogWorker(CatalogBackend backend) {
    this.backend = backend;
  }

  @Override
  public Future<?> start() {
    catalog = new LegacyCatalog(backend);
    // TODO: register a consumer at Protocol.CATALOG that handles each request with handle(message).
    return Future.succeededFuture();
  }

  private void handle(Message<JsonObject> message) {
    // TODO: DESCRIBE: answer {"item", "description"} with catalog.describe(item) (it blocks: where may it run?);
    //  when it throws LegacyCatalogException, fail with Protocol.LEGACY_FAILED and its message;
    //  any other action: fail with Protocol.UNKNOWN_ACTION.
    throw new UnsupportedOperationException("TODO: CatalogWorker.handle");
  }

  // TODO: the legacy client was opened in start(); what must happen to it when the verticle is undeployed?
}
