package io.looplab.perkey;

import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.util.HashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;

/**
 * Seats for many events at once. {@link #book} gives out an event's seats one at a time, numbered from 1, and has
 * the payment authorised before it counts a seat as sold.
 *
 * <p>Concurrency contract:
 * <ul>
 *   <li>Bookings of the <b>same</b> event run one at a time, each from its read of the sold seats to its write,
 *       because a payment is awaited in between. Bookings of <b>different</b> events never wait for each other.</li>
 *   <li>A booking waits at most {@code lockTimeoutMillis} for its turn, and then fails with
 *       {@link EventBusyException}.</li>
 *   <li>Whatever happens in a booking (a payment that fails or throws, a sold-out event), the next booking of
 *       that event gets its turn.</li>
 *   <li>Whatever is kept per event for locking is forgotten once no booking holds or waits for that event.</li>
 *   <li>An instance is used from one event loop, the one that created it (in the ticket office, the verticle's),
 *       so plain {@code HashMap}s are safe here: no two of its methods ever run at the same moment.</li>
 * </ul>
 *
 * <p>The booking itself, {@link #bookHoldingTheLock}, is written and correct. Your job is the lock around it: see
 * the {@code // TODO:}s. Run {@code ./lab check 11-per-key-locks} to see what still goes wrong.
 */
public class SeatBookings {

  private final Vertx vertx;
  private final PaymentService payments;
  private final long lockTimeoutMillis;

  /** Seats per event; never changes once an event is open. */
  private final Map<String, Integer> capacity = new HashMap<>();
  /** Seats sold per event: the shared state that a booking reads, and writes back after the payment. */
  private final Map<String, Integer> sold = new HashMap<>();

  /**
   * @param lockTimeoutMillis how long a booking waits for another booking of the same event to finish before it
   *                          gives up with {@link EventBusyException}
   */
  public SeatBookings(Vertx vertx, PaymentService payments, long lockTimeoutMillis) {
    this.vertx = Objects.requireNonNull(vertx);
    this.payments = Objects.requireNonNull(payments);
    this.lockTimeoutMillis = lockTimeoutMillis;
  }

  /** Opens an event with {@code seats} seats, none sold yet. */
  public void openEvent(String eventId, int seats) {
    capacity.put(eventId, seats);
    sold.put(eventId, 0);
  }

  /** How many seats of the event are still free. */
  public int seatsLeft(String eventId) {
    Integer seats = capacity.get(eventId);
    if (seats == null) {
      throw new NoSuchElementException("no event called '" + eventId + "'");
    }
    return seats - sold.get(eventId);
  }

  /**
   * Books the next free seat of {@code eventId} and answers its number (1 for the first seat sold). Never throws:
   * every failure is a failed future, with
   * <ul>
   *   <li>{@link NoSuchElementException} when there is no such event;</li>
   *   <li>{@link SoldOutException} when every seat is sold;</li>
   *   <li>{@link EventBusyException} when another booking of the same event kept it busy for longer than the lock
   *       timeout;</li>
   *   <li>the payment's own error when the payment fails or throws.</li>
   * </ul>
   */
  public Future<Integer> book(String eventId) {
    // TODO: one lock for every event: a booking for "opera" waits until the payment of a booking for "jazz" is
    //  done, although the two share nothing. Give each event a lock of its own.
    // TODO: getLocalLock waits up to 10 s, whatever lockTimeoutMillis says, and its failure says nothing a caller
    //  can act on. Wait at most lockTimeoutMillis, then fail with new EventBusyException(eventId, lockTimeoutMillis).
    return vertx.sharedData().getLocalLock("seat-bookings")
        .compose(lock -> bookHoldingTheLock(eventId)
            // TODO: released on success only. When the payment fails, when it throws, or when the event is sold
            //  out, nobody ever releases this lock, and every later booking waits for it in vain.
            .onSuccess(seat -> lock.release()));
  }

  /**
   * The booking itself: read the seats sold, decide, have the payment authorised, and write. Because of the await
   * in the middle, it is only correct while no other booking of the same event runs at the same time: call it
   * holding that event's lock. It may fail, and it may throw (when the payment service throws).
   */
  private Future<Integer> bookHoldingTheLock(String eventId) {
    Integer seats = capacity.get(eventId);
    if (seats == null) {
      return Future.failedFuture(new NoSuchElementException("no event called '" + eventId + "'"));
    }
    int alreadySold = sold.get(eventId);                      // read
    if (alreadySold >= seats) {                               // decide
      return Future.failedFuture(new SoldOutException(eventId));
    }
    int seat = alreadySold + 1;
    return payments.authorize(eventId, seat)                 // await: other bookings run meanwhile
        .map(authorized -> {
          sold.put(eventId, seat);                            // write
          return seat;
        });
  }

  /**
   * How many events your lock bookkeeping has an entry for right now: the entries of the maps (or other
   * collections) that you keep per event in order to lock, such as a lock, a queue of waiting bookings, or the
   * last booking in line. Do not count the seat maps above: they are the data, not the locks.
   *
   * <p>The grader calls it after bookings of 1,000 different events have all ended, once for each way a booking
   * can end (booked, failed, refused, timed out). By then, an entry that nobody holds or waits for is only memory
   * that grows with every event ever sold: it must be gone (a small cache of at most 100 idle entries is
   * tolerated).
   *
   * <p>If you keep nothing per event yourself, because you use Vert.x's local locks
   * ({@code vertx.sharedData().getLocalLockWithTimeout(name, timeout)}), return 0: Vert.x forgets a lock's name as
   * soon as nobody holds or waits for it.
   */
  public int registrySize() {
    // TODO: count the entries of your own per-event lock bookkeeping (see the Javadoc).
    throw new UnsupportedOperationException("TODO: registrySize() is not written yet: return how many events your "
        + "lock bookkeeping holds an entry for (0 if you keep none yourself)");
  }
}
