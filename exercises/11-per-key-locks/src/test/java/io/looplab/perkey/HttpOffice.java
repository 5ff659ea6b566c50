package io.looplab.perkey;

import io.looplab.grader.testkit.DeployedService;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.PoolOptions;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;

import java.util.Map;

import static io.looplab.perkey.Limits.WAIT;

/** The ticket office deployed as the learner's BookingVerticle serves it, for the tests that call it over HTTP. */
final class HttpOffice {

  private HttpOffice() {
  }

  /** The office, deployed with {@code payments}, and a client to call it with. */
  static DeployedService deploy(Vertx vertx, PaymentService payments, long lockTimeoutMillis) {
    BookingVerticle verticle = new BookingVerticle(payments, Map.of("jazz", 10), lockTimeoutMillis);
    WebClient client = WebClient.create(vertx, new WebClientOptions(), new PoolOptions().setHttp1MaxSize(16));
    return DeployedService.deploy(vertx, verticle, BookingVerticle::port, client, WAIT);
  }

  /** POST /events/{eventId}/bookings. */
  static Future<HttpResponse<Buffer>> book(DeployedService service, String eventId) {
    return service.post("/events/" + eventId + "/bookings");
  }

  /** What a request got so far, as a sentence's verb phrase: for a message. */
  static String answerOf(Future<HttpResponse<Buffer>> request) {
    if (!request.isComplete()) {
      return "is still waiting for an answer";
    }
    if (request.failed()) {
      return "failed: " + request.cause();
    }
    return "answered " + request.result().statusCode() + " " + request.result().bodyAsString();
  }
}
