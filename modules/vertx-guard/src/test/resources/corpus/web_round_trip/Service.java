package corpus.web_round_trip;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.BodyHandler;

public final class Service {
  public static Future<HttpServer> start(Vertx vertx) {
    Router router = Router.router(vertx);
    router.route().handler(BodyHandler.create());
    router.post("/echo").handler(ctx -> ctx.json(new JsonObject().put("got", ctx.body().asJsonObject())));
    router.get("/file").handler(ctx -> vertx.fileSystem().readFile(System.getProperty("java.home") + "/release")
        .onSuccess(b -> ctx.end(b))
        .onFailure(ctx::fail));
    return vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1");
  }
}
