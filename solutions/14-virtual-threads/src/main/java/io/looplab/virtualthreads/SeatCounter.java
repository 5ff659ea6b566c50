package io.looplab.virtualthreads;

import io.vertx.core.Vertx;
import io.vertx.core.shareddata.Lock;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The free seats of one show, and the reservations that take them, written in the style of a virtual-thread verticle:
 * straight-line code that waits with {@code Future.await()}.
 *
 * <p>Concurrency contract: {@link #reserve} is called on the virtual threads of one verticle's context, one call per
 * request, and a new call comes in while earlier ones are still waiting for their availability check. The count must
 * come out right whatever order those checks answer in: one seat per caller told {@code true}, never below zero.
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
   * Reserves one seat for {@code who}, once the availability check agrees. It waits for the check with
   * {@code Future.await()}, so it must run on a virtual thread (a verticle deployed with
   * {@code ThreadingModel.VIRTUAL_THREAD}).
   *
   * @return {@code true} when the seat is theirs, {@code false} when the show is sold out (whatever the check would
   *     say: nothing to ask) or the check refused them; no seat is taken unless the answer is {@code true}
   * @throws RuntimeException the check's error when it fails or throws, and await()'s InterruptedException on undeploy
   */
  public boolean reserve(String who) {
    // FIX: await() reads like a blocking call, but it suspends this reservation and frees the verticle's context,
    // which runs the next request in the gap: a reservation that awaits is two steps, and others run between them.
    // So the read, the decision and the write become one critical section, and the lock is held across the await:
    // the next reservation reads the count only once this one has written it.
    // The lock is a Vert.x local lock, and waiting for it is an await too: a reservation that finds it taken is
    // suspended and lets the context go, so the holder can resume, write and release it. A JDK lock (ReentrantLock,
    // synchronized, a Semaphore) would wait while KEEPING the context: the holder, suspended in the await of its
    // check, could never run again to release it, and the verticle would be deadlocked.
    Lock lock = vertx.sharedData().getLocalLock(lockName).await();
    try {
      return reserveHoldingTheLock(who);
    } finally {
      // Every way out: true, false, the check's failure, a check that throws, and the InterruptedException that
      // await() throws when the verticle is undeployed mid-reservation (checked, and not declared: a
      // catch (RuntimeException e) would miss it).
      lock.release();
    }
    // Also correct, and accepted by the tests: withLocalLock(lockName, () -> Future.succeededFuture(...)).await(), a
    // queue of turns (each reservation awaits the previous one's promise), or checking first and then reading,
    // deciding and writing after the await, with no await in between.
  }

  /** Read, decide, await the check, write: only ever run by the holder of the lock. */
  private boolean reserveHoldingTheLock(String who) {
    int free = freeSeats;                                   // read
    if (free == 0) {
      return false;                                         // decide: sold out
    }
    boolean allowed = availability.check(who).await();     // await the external check, the lock still held
    if (!allowed) {
      return false;                                         // decide: refused, the seat stays free
    }
    freeSeats = free - 1;                                   // write, before the lock is let go
    return true;
  }

  /** The seats still free. */
  public int freeSeats() {
    return freeSeats;
  }
}
