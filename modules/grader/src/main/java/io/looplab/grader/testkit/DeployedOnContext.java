package io.looplab.grader.testkit;

import io.vertx.core.Context;
import io.vertx.core.Deployable;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.time.Duration;

/**
 * A learner's {@link Deployable} (a service that is not an HTTP server), deployed, with the context Vert.x gave it:
 * the test calls the service there, as its own handlers would be called.
 *
 * @param deploymentId what {@code ShutdownCheck.assertCleanUndeploy} undeploys
 * @param context      the context of the service's {@code deploy}, where every call into it belongs
 */
public record DeployedOnContext(String deploymentId, Context context) {

  /** Deploys {@code service} and keeps its context; a {@code deploy} that does not complete in time fails the test. */
  public static DeployedOnContext deploy(Vertx vertx, Deployable service, Duration within) {
    ContextKeeper keeper = new ContextKeeper(service);
    String id = Await.result(vertx.deployVerticle(keeper), within, "Deploying " + service.getClass().getSimpleName()
        + " did not finish within " + Await.inWords(within) + ": start() must complete its future.");
    return new DeployedOnContext(id, keeper.context);
  }

  /** Passes deploy and undeploy on to the service, noting the context Vert.x deploys it on. */
  private static final class ContextKeeper implements Deployable {
    private final Deployable service;
    private volatile Context context;

    ContextKeeper(Deployable service) {
      this.service = service;
    }

    @Override
    public Future<?> deploy(Context context) throws Exception {
      this.context = context;
      return service.deploy(context);
    }

    @Override
    public Future<?> undeploy(Context context) throws Exception {
      return service.undeploy(context);
    }
  }
}
