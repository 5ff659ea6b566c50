package io.looplab.singleowner;

import io.looplab.legacy.CatalogBackend;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.ThreadingModel;
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
    // One instance, a standard verticle: the stock lives on one event loop, and only its owner touches it.
    DeploymentOptions owner = new DeploymentOptions().setConfig(config);
    // A worker verticle: the legacy client blocks, so its calls run on a worker thread, one at a time (the client
    // is not thread-safe, and a worker verticle's handlers never run in parallel).
    DeploymentOptions worker = new DeploymentOptions().setConfig(config).setThreadingModel(ThreadingModel.WORKER);
    // Several instances of the edge, each on an event loop of its own: they share the port and ask the owner.
    DeploymentOptions edge = new DeploymentOptions().setConfig(config).setInstances(edges);
    return vertx.deployVerticle(new StockOwner(), owner)
        .compose(id -> vertx.deployVerticle(new CatalogWorker(backend), worker))
        .compose(id -> vertx.deployVerticle(HttpEdge::new, edge));
  }
}
