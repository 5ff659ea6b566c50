package io.looplab.singleowner;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import static io.looplab.singleowner.Protocol.ACTION;
import static io.looplab.singleowner.Protocol.CATALOG;
import static io.looplab.singleowner.Protocol.COUNT;
import static io.looplab.singleowner.Protocol.DESCRIBE;
import static io.looplab.singleowner.Protocol.LEGACY_FAILED;
import static io.looplab.singleowner.Protocol.OUT_OF_STOCK;
import static io.looplab.singleowner.Protocol.RESERVE;
import static io.looplab.singleowner.Protocol.STOCK;

/**
 * The HTTP edge, deployed as several instances. It holds no state: it turns each request into a question on the
 * event bus, waits for the answer no longer than {@code timeout.ms} (each instance its own config's: two edges
 * deployed with different configs wait differently), and turns the answer (or the failure) into an HTTP response.
 * <ul>
 *   <li>{@code GET /stock/:item}: 200 {@code {"item", "left"}};</li>
 *   <li>{@code POST /stock/:item/reserve}: 200 {@code {"item", "left"}}, or 409 when none is left;</li>
 *   <li>{@code GET /catalog/:item}: 200 {@code {"item", "description"}}, or 502 when the legacy catalog failed.</li>
 * </ul>
 * Any answer that does not come in time is a 503. Every failure's body is a JSON object {@code {"error": reason}}.
 */
public class HttpEdge extends VerticleBase {

  private long timeoutMs;

  @Override
  public Future<?> start() {
    timeoutMs = config().getLong("timeout.ms", 2000L);
    Router router = Router.router(vertx);
    router.get("/stock/:item").handler(ctx -> ask(ctx, STOCK, COUNT));
    router.post("/stock/:item/reserve").handler(ctx -> ask(ctx, STOCK, RESERVE));
    router.get("/catalog/:item").handler(ctx -> ask(ctx, CATALOG, DESCRIBE));
    return vertx.createHttpServer().requestHandler(router).listen(config().getInteger("http.port", 8080));
  }

  private void ask(RoutingContext ctx, String address, String action) {
    // The timeout belongs on the request itself: when it passes, Vert.x fails the reply with TIMEOUT and removes
    // the reply handler and its timer. (Without it Vert.x waits 30 s.)
    DeliveryOptions options = new DeliveryOptions().addHeader(ACTION, action).setSendTimeout(timeoutMs);
    vertx.eventBus().<JsonObject>request(address, new JsonObject().put("item", ctx.pathParam("item")), options)
        .onSuccess(reply -> ctx.json(reply.body()))
        .onFailure(failure -> answerFailure(ctx, address, failure));
  }

  /** A failed ask, as HTTP: the failure type and code say which status; the body says why. */
  private void answerFailure(RoutingContext ctx, String address, Throwable failure) {
    int status = 500;
    String reason = String.valueOf(failure.getMessage());
    if (failure instanceof ReplyException reply) {
      switch (reply.failureType()) {
        case TIMEOUT -> {
          status = 503;
          reason = address + " did not answer within " + timeoutMs + " ms";
        }
        case NO_HANDLERS -> {
          status = 503;
          reason = "nobody answers at " + address;
        }
        case RECIPIENT_FAILURE -> status = switch (reply.failureCode()) {
          case OUT_OF_STOCK -> 409;
          case LEGACY_FAILED -> 502;
          default -> 500;
        };
        default -> status = 500;
      }
    }
    ctx.response().setStatusCode(status).putHeader("content-type", "application/json")
        .end(new JsonObject().put("error", reason).encode());
  }
}
