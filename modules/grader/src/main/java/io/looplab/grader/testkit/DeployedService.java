package io.looplab.grader.testkit;

import io.vertx.core.Deployable;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;

import java.time.Duration;
import java.util.function.ToIntFunction;

/**
 * A learner's HTTP verticle, deployed, with a client to call it on 127.0.0.1 (a literal address: no name lookup
 * stands between the test and the server).
 *
 * @param deploymentId what {@code ShutdownCheck.assertCleanUndeploy} undeploys
 * @param port         the port the verticle listens on
 */
public record DeployedService(String deploymentId, int port, WebClient client) {

  /**
   * Deploys {@code verticle} and asks it for its port once it has started.
   *
   * @param port how the verticle says which port it listens on, such as {@code QuoteVerticle::actualPort}
   */
  public static <V extends Deployable> DeployedService deploy(Vertx vertx, V verticle, ToIntFunction<V> port,
                                                              WebClient client, Duration within) {
    String id = Await.result(vertx.deployVerticle(verticle), within, "Deploying " + verticle.getClass().getSimpleName()
        + " did not finish within " + Await.inWords(within) + ": start() must complete the future it returns.");
    return new DeployedService(id, port.applyAsInt(verticle), client);
  }

  /** As {@link #deploy(Vertx, Deployable, ToIntFunction, WebClient, Duration)}, with a default client. */
  public static <V extends Deployable> DeployedService deploy(Vertx vertx, V verticle, ToIntFunction<V> port,
                                                              Duration within) {
    return deploy(vertx, verticle, port, WebClient.create(vertx), within);
  }

  public Future<HttpResponse<Buffer>> get(String path) {
    return client.get(port, "127.0.0.1", path).send();
  }

  public Future<HttpResponse<Buffer>> post(String path) {
    return client.post(port, "127.0.0.1", path).send();
  }

  public Future<HttpResponse<Buffer>> post(String path, JsonObject body) {
    return client.post(port, "127.0.0.1", path).sendJsonObject(body);
  }
}
