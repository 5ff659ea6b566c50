package io.looplab.singleowner;

import io.looplab.legacy.CatalogBackend;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.json.JsonObject;

/**
 * The application: deploys the stock owner, the legacy catalog's worker and the HTTP edge, each with the options its
 * job needs, and hands each the same config. Undeploying it undeploys all three.
 *
 * <p>Config: {@code http.port} (default 8080), {@code timeout.ms} (how long the edge waits for an answer, default
 * 2000), {@code edge.instances} (default 4) and {@code stock} (e.g. {@code {"apple": 12}}).
 */
public class LabApp extends VerticleBase {

  private final CatalogBackend backend;

  public LabApp(CatalogBackend backend) {
    this.backend = backend;
  }

  @Override
  public Future<?> start() {
    JsonObject config = config();
    int edges = config.getInteger("edge.instances", 4);
    // TODO: how many owners may there be, and on which kind of thread does the owner run?
    DeploymentOptions owner = new DeploymentOptions().setConfig(config);
    // TODO: the legacy client blocks: which threading model lets its calls block without blocking an event loop?
    DeploymentOptions worker = new DeploymentOptions().setConfig(config);
    // TODO: the edge holds no state: deploy `edges` instances of it, one per event loop.
    DeploymentOptions edge = new DeploymentOptions().setConfig(config);
    return vertx.deployVerticle(new StockOwner(), owner)
        .compose(id -> vertx.deployVerticle(new CatalogWorker(backend), worker))
        .compose(id -> vertx.deployVerticle(HttpEdge::new, edge));
  }
}
