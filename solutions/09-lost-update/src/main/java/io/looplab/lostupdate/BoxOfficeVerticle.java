package io.looplab.lostupdate;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;

/**
 * The box office: takes reservations over the event bus and hands each one to its {@link SeatCounter}. This class is
 * finished; the work of the exercise is in {@code SeatCounter}.
 *
 * <p>Send the name of the person to {@link #ADDRESS}. The reply is {@code {"who":"ada","reserved":true,"freeSeats":4}}
 * ({@code reserved} is false when the show is sold out or the booking service refused), or a failure with code
 * {@link #CHECK_FAILED} and the reason, when the availability check failed.
 */
public class BoxOfficeVerticle extends VerticleBase {

  public static final String ADDRESS = "box-office.reserve";

  /** The failure code of a reservation whose availability check failed: like HTTP 503, try again later. */
  public static final int CHECK_FAILED = 503;

  private final int seats;
  private final AvailabilityCheck availability;
  private SeatCounter counter;

  public BoxOfficeVerticle(int seats, AvailabilityCheck availability) {
    this.seats = seats;
    this.availability = availability;
  }

  @Override
  public Future<?> start() {
    // Every request arrives on this verticle's one event loop, one task at a time. That alone does not protect
    // the counter: see SeatCounter.
    counter = new SeatCounter(vertx, seats, availability);
    return vertx.eventBus().<String>consumer(ADDRESS, this::reserve).completion();
  }

  private void reserve(Message<String> request) {
    String who = request.body();
    counter.reserve(who).onComplete(
        reserved -> request.reply(new JsonObject()
            .put("who", who)
            .put("reserved", reserved)
            .put("freeSeats", counter.freeSeats())),
        failure -> request.fail(CHECK_FAILED, "availability check failed for " + who + ": " + failure.getMessage()));
  }
}
