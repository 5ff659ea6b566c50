package io.looplab.perkey;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.function.Supplier;

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
 * <p>The booking itself, {@link #bookHoldingTheLock}, is the exercise's, unchanged. The fix is the lock around it:
 * one per event, released on every path, with a timeout, and forgotten when idle.
 */
public class SeatBookings {

  private final Vertx vertx;
  private final PaymentService payments;
  private final long lockTimeoutMillis;

  /** Seats per event; never changes once an event is open. */
  private final Map<String, Integer> capacity = new HashMap<>();
  /** Seats sold per event: the shared state that a booking reads, and writes back after the payment. */
  private final Map<String, Integer> sold = new HashMap<>();

  // The fix: one lock per event, made on demand and dropped when nobody needs it any more. An event has an entry
  // here exactly while a booking holds its lock; the entry also queues the bookings waiting for it. So this map
  // is as big as the number of events being booked *right now*, not the number of events ever booked.
  //
  // Another correct design, shorter: Vert.x's local locks, one name per event,
  //   vertx.sharedData().getLocalLockWithTimeout("seat-bookings:" + eventId, lockTimeoutMillis)
  // Vert.x keeps the same kind of map inside, and also drops a name once nobody holds or waits for it. You would
  // still turn its timeout failure into EventBusyException, and release on every path, as withEventLock does here.
  private final Map<String, EventLock> locks = new HashMap<>();

  /** The lock of one event: held by one booking, with the bookings waiting for it in arrival order. */
  private static final class EventLock {
    boolean held;
    final ArrayDeque<Waiter> waiters = new ArrayDeque<>();
  }

  /** A booking waiting for its turn, and the timer that gives up on its behalf. */
  private static final class Waiter {
    final Promise<Void> turn = Promise.promise();
    long timeoutTimer;
  }

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
    // The lock is the event's own: a booking of "opera" never queues behind a payment for "jazz".
    return withEventLock(eventId, () -> bookHoldingTheLock(eventId));
  }

  /**
   * Runs {@code work} holding the lock of {@code eventId}, and releases the lock however the work ends. This is
   * the asynchronous try/finally: "finally" is a callback on the work's future, for success and failure alike.
   */
  private <T> Future<T> withEventLock(String eventId, Supplier<Future<T>> work) {
    return acquire(eventId).compose(locked -> {
      Future<T> result;
      try {
        result = work.get();
      } catch (RuntimeException e) {
        // The work threw before it returned a future (here: the payment client threw). Without this catch the
        // future that the release hangs on would never exist, and the lock would be held for good.
        result = Future.failedFuture(e);
      }
      // andThen, not onSuccess: the lock is released when the booking succeeds, fails, or is refused.
      return result.andThen(done -> release(eventId));
    });
  }

  private Future<Void> acquire(String eventId) {
    EventLock lock = locks.computeIfAbsent(eventId, id -> new EventLock());
    if (!lock.held) {
      lock.held = true;
      return Future.succeededFuture();
    }
    // Someone holds it: wait in line, but not for longer than the lock timeout.
    Waiter waiter = new Waiter();
    lock.waiters.add(waiter);
    waiter.timeoutTimer = vertx.setTimer(lockTimeoutMillis, timer -> {
      // Leave the line first, so that release() never hands the lock to a booking that already gave up.
      lock.waiters.remove(waiter);
      waiter.turn.fail(new EventBusyException(eventId, lockTimeoutMillis));
    });
    return waiter.turn.future();
  }

  private void release(String eventId) {
    EventLock lock = locks.get(eventId);
    Waiter next = lock.waiters.poll();
    if (next != null) {
      // Hand the lock straight to the next booking in line: it stays held, and nobody can slip in between.
      vertx.cancelTimer(next.timeoutTimer);
      next.turn.complete();
      return;
    }
    lock.held = false;
    // Nobody holds this event's lock and nobody waits for it: forget it. Keep it, and the map grows by one entry
    // for every event ever booked, for as long as the server runs.
    locks.remove(eventId);
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
    return locks.size();
  }
}
