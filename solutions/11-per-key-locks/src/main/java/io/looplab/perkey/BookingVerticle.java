package io.looplab.perkey;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;

/**
 * The ticket office over HTTP. {@code POST /events/:id/bookings} books the next free seat of an event:
 * <ul>
 *   <li>200 {@code {"event":"jazz","seat":3}}: seat 3 is yours, and paid for;</li>
 *   <li>404: there is no such event;</li>
 *   <li>409: the event is sold out;</li>
 *   <li>503, with {@code Retry-After: 1}: the event stayed busy with another booking for longer than the lock
 *       timeout ({@link EventBusyException}); nothing was booked, try again;</li>
 *   <li>502: the payment failed; nothing was booked.</li>
 * </ul>
 * There is nothing to change here: the work is in {@link SeatBookings}.
 */
public class BookingVerticle extends VerticleBase {

  private final PaymentService payments;
  private final Map<String, Integer> events;
  private final long lockTimeoutMillis;
  private volatile SeatBookings bookings;
  private volatile int port = -1;

  /** {@code events} maps each event id to its number of seats. */
  public BookingVerticle(PaymentService payments, Map<String, Integer> events, long lockTimeoutMillis) {
    this.payments = Objects.requireNonNull(payments);
    this.events = Map.copyOf(events);
    this.lockTimeoutMillis = lockTimeoutMillis;
  }

  /** The port the office listens on once deployed, or -1 before. */
  public int port() {
    return port;
  }

  /** The bookings this verticle serves; use them only from the verticle's own event loop. */
  public SeatBookings bookings() {
    return bookings;
  }

  @Override
  public Future<?> start() {
    // Created here, on the verticle's event loop: every booking runs on this one thread.
    bookings = new SeatBookings(vertx, payments, lockTimeoutMillis);
    events.forEach(bookings::openEvent);
    Router router = Router.router(vertx);
    router.post("/events/:id/bookings").handler(this::book);
    return vertx.createHttpServer()
        .requestHandler(router)
        .listen(0)
        .onSuccess(server -> port = server.actualPort());
  }

  private void book(RoutingContext ctx) {
    String eventId = ctx.pathParam("id");
    bookings.book(eventId)
        .onSuccess(seat -> ctx.json(new JsonObject().put("event", eventId).put("seat", seat)))
        .onFailure(err -> answerError(ctx, err));
  }

  /** One status per kind of failure, and the reason in the body, so that a caller knows what to do next. */
  private static void answerError(RoutingContext ctx, Throwable err) {
    int status = 502;
    if (find(err, EventBusyException.class) != null) {
      status = 503;
      ctx.response().putHeader("Retry-After", "1");
    } else if (find(err, SoldOutException.class) != null) {
      status = 409;
    } else if (find(err, NoSuchElementException.class) != null) {
      status = 404;
    }
    ctx.response().setStatusCode(status).putHeader("content-type", "application/json")
        .end(new JsonObject().put("error", String.valueOf(err.getMessage())).encode());
  }

  /** {@code err} or its first cause of that type; a wrapped failure keeps its meaning. */
  private static <T extends Throwable> T find(Throwable err, Class<T> type) {
    for (Throwable t = err; t != null; t = t.getCause()) {
      if (type.isInstance(t)) {
        return type.cast(t);
      }
    }
    return null;
  }
}
