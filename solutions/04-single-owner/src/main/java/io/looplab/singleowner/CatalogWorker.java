package io.looplab.singleowner;

import io.looplab.legacy.CatalogBackend;
import io.looplab.legacy.LegacyCatalog;
import io.looplab.legacy.LegacyCatalogException;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;

import static io.looplab.singleowner.Protocol.ACTION;
import static io.looplab.singleowner.Protocol.CATALOG;
import static io.looplab.singleowner.Protocol.DESCRIBE;
import static io.looplab.singleowner.Protocol.LEGACY_FAILED;
import static io.looplab.singleowner.Protocol.UNKNOWN_ACTION;

/**
 * Wraps the blocking legacy catalog client and answers {@link Protocol#CATALOG} requests. LabApp deploys it as a
 * worker verticle: its handler runs on a worker thread, where blocking is allowed, and never two at once, so the
 * client (not thread-safe) is called one call at a time.
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
    return vertx.eventBus().<JsonObject>consumer(CATALOG, this::handle).completion();
  }

  private void handle(Message<JsonObject> message) {
    String action = message.headers().get(ACTION);
    if (!DESCRIBE.equals(action)) {
      message.fail(UNKNOWN_ACTION, "unknown action '" + action + "' at " + CATALOG + ": expected " + DESCRIBE);
      return;
    }
    String item = message.body().getString("item");
    try {
      // Blocks this worker thread until the old server answers; no event loop waits.
      message.reply(new JsonObject().put("item", item).put("description", catalog.describe(item)));
    } catch (LegacyCatalogException e) {
      message.fail(LEGACY_FAILED, e.getMessage());
    }
  }

  @Override
  public Future<?> stop() {
    // We opened the client, so we close it: its keep-alive thread would outlive the verticle.
    catalog.close();
    return Future.succeededFuture();
  }
}
