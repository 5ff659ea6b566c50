package com.example.prices;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;

import java.security.MessageDigest;
import java.util.HexFormat;

/**
 * GET /prices/:item answers an item's price in cents from prices.json (read once, through Vert.x's file system);
 * POST /orders with {"item": ..., "quantity": ...} answers the total and a receipt code, computed on a worker.
 */
public final class PriceService extends VerticleBase {

  private final int port;
  private JsonObject prices;
  private HttpServer server;

  public PriceService(int port) {
    this.port = port;
  }

  @Override
  public Future<?> start() {
    Router router = Router.router(vertx);
    router.route().handler(BodyHandler.create().setBodyLimit(4096));
    router.get("/prices/:item").handler(this::price);
    router.post("/orders").handler(this::order);
    return vertx.fileSystem().readFile("prices.json")
        .map(buffer -> prices = buffer.toJsonObject())
        .compose(loaded -> vertx.createHttpServer().requestHandler(router).listen(port, "127.0.0.1"))
        .onSuccess(s -> server = s);
  }

  /** The port it listens on (useful when started on port 0). */
  public int actualPort() {
    return server.actualPort();
  }

  private void price(RoutingContext ctx) {
    Integer cents = prices.getInteger(ctx.pathParam("item"));
    if (cents == null) {
      ctx.response().setStatusCode(404).end();
      return;
    }
    ctx.json(new JsonObject().put("item", ctx.pathParam("item")).put("cents", cents));
  }

  private void order(RoutingContext ctx) {
    JsonObject body = ctx.body().asJsonObject();
    Integer cents = body == null ? null : prices.getInteger(body.getString("item"));
    int quantity = body == null ? 0 : body.getInteger("quantity", 0);
    if (cents == null || quantity <= 0) {
      ctx.response().setStatusCode(400).end();
      return;
    }
    int total = cents * quantity;
    // A receipt code that costs real CPU (a few thousand rounds of SHA-256): on a worker, not on the event loop.
    vertx.executeBlocking(() -> receipt(body.getString("item") + ":" + total), false)
        .onSuccess(code -> ctx.json(new JsonObject().put("total", total).put("receipt", code)))
        .onFailure(ctx::fail);
  }

  static String receipt(String text) throws Exception {
    MessageDigest sha = MessageDigest.getInstance("SHA-256");
    byte[] digest = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    for (int i = 0; i < 20_000; i++) {
      digest = sha.digest(digest);
    }
    return HexFormat.of().formatHex(digest, 0, 6);
  }
}
