package com.example.prices;

import io.looplab.guard.GuardedVertxTest;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * The service's behaviour, as plain vertx-junit5 tests would check it; @GuardedVertxTest adds that no handler of the
 * service blocks or stalls its event loop meanwhile. No warm-up: the first test runs on a cold JVM.
 */
@GuardedVertxTest
class PriceServiceTest {

  private WebClient client;
  private PriceService service;

  @BeforeEach
  void deploy(Vertx vertx, VertxTestContext test) {
    client = WebClient.create(vertx);
    service = new PriceService(0);
    vertx.deployVerticle(service).onComplete(test.succeedingThenComplete());
  }

  @Test
  @DisplayName("GET /prices/:item answers the item's price from prices.json")
  void answersAPrice(VertxTestContext test) {
    client.get(service.actualPort(), "127.0.0.1", "/prices/pear").send()
        .onComplete(test.succeeding(response -> test.verify(() -> {
          assertEquals(200, response.statusCode());
          assertEquals(new JsonObject().put("item", "pear").put("cents", 95), response.bodyAsJsonObject());
          test.completeNow();
        })));
  }

  @Test
  @DisplayName("an item without a price is 404")
  void unknownItemIsNotFound(VertxTestContext test) {
    client.get(service.actualPort(), "127.0.0.1", "/prices/durian").send()
        .onComplete(test.succeeding(response -> test.verify(() -> {
          assertEquals(404, response.statusCode());
          test.completeNow();
        })));
  }

  @Test
  @DisplayName("POST /orders answers the total and a receipt computed off the event loop")
  void ordersAreTotalled(VertxTestContext test) {
    client.post(service.actualPort(), "127.0.0.1", "/orders")
        .sendJsonObject(new JsonObject().put("item", "apple").put("quantity", 3))
        .onComplete(test.succeeding(response -> test.verify(() -> {
          assertEquals(200, response.statusCode(), response.bodyAsString());
          assertEquals(360, response.bodyAsJsonObject().getInteger("total"));
          assertNotNull(response.bodyAsJsonObject().getString("receipt"));
          test.completeNow();
        })));
  }

  @Test
  @DisplayName("an order without a quantity is 400")
  void badOrderIsRefused(VertxTestContext test) {
    client.post(service.actualPort(), "127.0.0.1", "/orders")
        .sendJsonObject(new JsonObject().put("item", "apple"))
        .onComplete(test.succeeding(response -> test.verify(() -> {
          assertEquals(400, response.statusCode());
          test.completeNow();
        })));
  }
}
