package corpus.web_round_trip;

import io.looplab.guard.GuardedVertxTest;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.Test;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;

@GuardedVertxTest
class ServiceTest {
  @Test
  void answersOverHttp(Vertx vertx, VertxTestContext test) {
    WebClient client = WebClient.create(vertx);
    Service.start(vertx)
        .compose(server -> client.post(server.actualPort(), "127.0.0.1", "/echo")
            .sendJsonObject(new JsonObject().put("n", 1))
            .compose(echo -> client.get(server.actualPort(), "127.0.0.1", "/file").send()
                .map(file -> echo.bodyAsJsonObject().getJsonObject("got").getInteger("n") + file.statusCode())))
        .onComplete(test.succeeding(sum -> test.verify(() -> {
          if (sum != 201) {
            throw new AssertionError("expected 1 + 200, got " + sum);
          }
          test.completeNow();
        })));
  }
}
