package io.looplab.lostupdate;

import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The free seats of one show, and the reservations that take them.
 *
 * <p>Concurrency contract: the counter is used from one event loop (the verticle that owns it), and
 * {@link #reserve} is called again while earlier reservations are still waiting for their availability check. The
 * count must come out right whatever order those checks answer in: one seat per caller told {@code true}, never
 * below zero.
 */
public class SeatCounter {

  private static final AtomicLong COUNTERS = new AtomicLong();

  private final Vertx vertx;
  private final AvailabilityCheck availability;
  // A local lock is shared by name across the whole Vert.x instance: one name per counter, so that two shows never
  // wait for each other.
  private final String lockName = "seat-counter-" + COUNTERS.incrementAndGet();
  private int freeSeats;

  public SeatCounter(Vertx vertx, int seats, AvailabilityCheck availability) {
    this.vertx = vertx;
    this.availability = availability;
    this.freeSeats = seats;
  }

  /**
   * Reserves one seat for {@code who}, once the availability check agrees.
   *
   * @return a future that succeeds with {@code true} when the seat is theirs, with {@code false} when the show is
   *     sold out or the check refused them (no seat is taken), and fails with the check's error when the check
   *     fails (no seat is taken either)
   */
  public Future<Boolean> reserve(String who) {
    // FIX: one event loop runs one task at a time, but this reservation is two tasks: everything up to the call of
    // the check, and the callback after it. Other reservations run in between. So the read, the decision and the
    // write become one critical section, and the lock is held across the await: the next reservation reads the
    // count only once this one has written it.
    // withLocalLock takes the lock (waiting for it if another reservation holds it: the event loop is not blocked
    // meanwhile), runs the block, and releases the lock when the block's future completes, however it completes:
    // with true, with false, or with the check's failure. No path can forget to release it.
    // The same thing by hand: getLocalLock(lockName).compose(lock -> reserveHoldingTheLock(who)
    //     .andThen(done -> lock.release())). Not onSuccess: a failed check would keep the lock for ever.
    // Other shapes are just as correct, and the tests accept them: a chain that starts each reservation when the
    // previous one has completed (tail = tail.transform(done -> reserveHoldingTheLock(who))), or deciding and
    // writing again after the await, in the callback's single task (if (freeSeats == 0) return false; freeSeats--).
    return vertx.sharedData().withLocalLock(lockName, () -> reserveHoldingTheLock(who));
  }

  /** Read, decide, await the check, write: only ever run by the holder of the lock. */
  private Future<Boolean> reserveHoldingTheLock(String who) {
    int free = freeSeats;                                // read
    if (free == 0) {
      return Future.succeededFuture(false);              // decide: sold out
    }
    return availability.check(who).map(allowed -> {    // await the external check, lock still held
      if (!allowed) {
        return false;                                    // decide: refused, the seat stays free
      }
      freeSeats = free - 1;                              // write, before the lock is let go
      return true;
    });
    // A failed check fails this future: the caller hears the error, nothing was written, and the lock is released
    // all the same.
  }

  /** The seats still free. */
  public int freeSeats() {
    return freeSeats;
  }
}
