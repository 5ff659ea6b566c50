package io.looplab.virtualthreads;

import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.ThreadingModel;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;

/**
 * The box office, written for virtual threads: each request is handled in straight-line code that waits with
 * {@code Future.await()}. Send the name of the person to {@link #RESERVE}; the reply is
 * {@code {"who":"ada","reserved":true,"freeSeats":4}}, or a failure with code {@link #CHECK_FAILED} when the
 * availability check failed. Send it to {@link #QUOTE}; the reply is {@code {"who":"ada","price":4000}}, or a failure
 * with code {@link #CHECK_FAILED} when a lookup failed.
 *
 * <p>Deploy it with {@code vertx.deployVerticle(new BoxOfficeVerticle(...), BoxOfficeVerticle.deploymentOptions())}.
 */
public class BoxOfficeVerticle extends VerticleBase {

  public static final String RESERVE = "box-office.reserve";
  public static final String QUOTE = "box-office.quote";

  /** The failure code of a request whose remote service failed: like HTTP 503, try again later. */
  public static final int CHECK_FAILED = 503;

  private final int seats;
  private final AvailabilityCheck availability;
  private final PriceList prices;
  private final Loyalty loyalty;
  private SeatCounter counter;
  private TicketQuotes quotes;

  public BoxOfficeVerticle(int seats, AvailabilityCheck availability, PriceList prices, Loyalty loyalty) {
    this.seats = seats;
    this.availability = availability;
    this.prices = prices;
    this.loyalty = loyalty;
  }

  /** How this verticle must be deployed. */
  public static DeploymentOptions deploymentOptions() {
    // FIX: on virtual threads, each request runs on a virtual thread of its own, and await() suspends it without
    // blocking anything: the context runs the next request meanwhile. Vert.x refuses await() on an event loop (and on
    // a worker thread). Deploying with this model needs JDK 21 or newer.
    return new DeploymentOptions().setThreadingModel(ThreadingModel.VIRTUAL_THREAD);
  }

  @Override
  public Future<?> start() {
    counter = new SeatCounter(vertx, seats, availability);
    quotes = new TicketQuotes(prices, loyalty);
    return Future.all(
        vertx.eventBus().<String>consumer(RESERVE, this::reserve).completion(),
        vertx.eventBus().<String>consumer(QUOTE, this::quote).completion());
  }

  private void reserve(Message<String> request) {
    String who = request.body();
    boolean reserved;
    try {
      reserved = counter.reserve(who);
    } catch (Exception failure) {
      request.fail(CHECK_FAILED, "availability check failed for " + who + ": " + failure.getMessage());
      return;
    }
    request.reply(new JsonObject().put("who", who).put("reserved", reserved).put("freeSeats", counter.freeSeats()));
  }

  private void quote(Message<String> request) {
    String who = request.body();
    int price;
    try {
      price = quotes.quote(who);
    } catch (Exception failure) {
      request.fail(CHECK_FAILED, "price lookup failed for " + who + ": " + failure.getMessage());
      return;
    }
    request.reply(new JsonObject().put("who", who).put("price", price));
  }
}
