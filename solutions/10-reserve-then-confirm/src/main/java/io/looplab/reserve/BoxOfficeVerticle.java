package io.looplab.reserve;

import io.looplab.payments.PaymentDeclinedException;
import io.looplab.payments.PaymentService;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.MessageConsumer;

/**
 * The box office of one show with a fixed number of seats. Customers book over the event bus:
 * <ul>
 *   <li>{@value #BOOK_ADDRESS}, with the customer's name as the body, books one seat and pays for it. The reply is
 *       a confirmation once the payment is approved. When no seat is free it fails at once with
 *       {@value #SOLD_OUT}, and the customer is not charged. When the payment is declined it fails with
 *       {@value #PAYMENT_DECLINED} and the provider's reason, and the seat is free again;</li>
 *   <li>{@value #FREE_ADDRESS} answers {@link #free()}.</li>
 * </ul>
 *
 * <p>Concurrency contract: every field is read and written on this verticle's event loop only; the event bus
 * delivers both addresses there, and the payment service completes its futures there.
 */
public class BoxOfficeVerticle extends VerticleBase {

  public static final String BOOK_ADDRESS = "box-office.book";
  public static final String FREE_ADDRESS = "box-office.free";

  /** The failure code of a booking refused because no seat is free. */
  public static final int SOLD_OUT = 409;
  /** The failure code of a booking whose payment was declined. */
  public static final int PAYMENT_DECLINED = 402;

  private final PaymentService payments;
  /** Seats neither sold nor held for a customer who is paying. */
  private int free;

  public BoxOfficeVerticle(int seats, PaymentService payments) {
    this.free = seats;
    this.payments = payments;
  }

  @Override
  public Future<?> start() {
    MessageConsumer<String> bookings = vertx.eventBus().consumer(BOOK_ADDRESS, msg -> book(msg.body())
        .onSuccess(msg::reply)
        .onFailure(err -> msg.fail(failureCode(err), err.getMessage())));
    MessageConsumer<Object> counts = vertx.eventBus().consumer(FREE_ADDRESS, msg -> msg.reply(free()));
    return Future.all(bookings.completion(), counts.completion());
  }

  /** Seats neither sold nor held for a customer who is paying: never below zero, never above the show's size. */
  public int free() {
    return free;
  }

  /**
   * Books one seat for {@code customer} and charges them for it. Completes with a confirmation once the payment is
   * approved; fails at once with a {@link SoldOutException}, without charging anyone, when no seat is free; fails
   * with the payment's {@link PaymentDeclinedException} when it is declined, and the seat is free again.
   */
  public Future<String> book(String customer) {
    // FIX: the critical section is these few lines, and it needs no lock. They run on the event loop in one go,
    // with no await between the check and the write: nothing else can run on this loop until the method returns,
    // so no other booking can see the count between "is a seat free?" and "take it". (A lock taken just for these
    // lines and released before the payment is also correct, only unnecessary on one event loop.)
    if (free == 0) {
      return Future.failedFuture(new SoldOutException(customer));
    }
    free--; // reserve: from now on the seat is held for this customer, and nobody else can take it
    // FIX: the slow part runs outside the critical section, with nothing held. While this customer pays, the next
    // booking runs the lines above straight away: it takes another seat, or is refused at once when none is left.
    return charge(customer)
        // FIX: a failed payment undoes exactly what this booking did: one free++, here and nowhere else. Not
        // "free = the value before", since other customers may have taken seats since, and not on a refusal above,
        // which took nothing. Every failure counts, not only a PaymentDeclinedException: a timeout, or a client
        // error, leaves the seat unpaid just the same. The callback runs on this event loop, where the payment
        // client completes its future.
        .onFailure(declined -> free++)
        .map(approved -> "seat booked for " + customer);
  }

  /**
   * The payment, as a future in every case. FIX: a client can throw instead of failing its future (a closed
   * connection, a bad argument); an exception thrown here would escape book() after the seat was taken, and the
   * customer would never hear back. Future.future turns it into a failed future, which the rollback above handles.
   */
  private Future<Void> charge(String customer) {
    return Future.future(promise -> payments.charge(customer).onComplete(promise));
  }

  private static int failureCode(Throwable err) {
    if (err instanceof SoldOutException) {
      return SOLD_OUT;
    }
    if (err instanceof PaymentDeclinedException) {
      return PAYMENT_DECLINED;
    }
    return 500;
  }
}
