package io.looplab.singleowner;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import static io.looplab.singleowner.Protocol.CATALOG;
import static io.looplab.singleowner.Protocol.COUNT;
import static io.looplab.singleowner.Protocol.DESCRIBE;
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
    JsonObject question = new JsonObject().put("item", ctx.pathParam("item"));
    // TODO: send `question` to `address` with eventBus().request, the action in the header Protocol.ACTION, and an
    //  answer within timeoutMs. Answer the reply's body as JSON (ctx.json), or the failure with answerFailure.
    throw new UnsupportedOperationException("TODO: HttpEdge.ask");
  }

  /** A failed ask, as HTTP: the failure type and code say which status; the body says why. */
  private void answerFailure(RoutingContext ctx, String address, Throwable failure) {
    // TODO: a ReplyException's failureType() and failureCode() tell what happened: no answer in time (503), out of
    //  stock (409), the legacy catalog failed (502)... Put the reason in a JSON body: {"error": reason}.
    ctx.response().setStatusCode(500).end(String.valueOf(failure.getMessage()));
  }
}
