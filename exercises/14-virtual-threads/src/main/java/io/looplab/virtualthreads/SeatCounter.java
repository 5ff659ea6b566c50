package io.looplab.virtualthreads;

import io.vertx.core.Vertx;

/**
 * The free seats of one show, and the reservations that take them, written in the style of a virtual-thread verticle:
 * straight-line code that waits with {@code Future.await()}.
 *
 * <p>Concurrency contract: {@link #reserve} is called on the virtual threads of one verticle's context, one call per
 * request, and a new call comes in while earlier ones are still waiting for their availability check. The count must
 * come out right whatever order those checks answer in: one seat per caller told {@code true}, never below zero.
 */
public class SeatCounter {

  private final Vertx vertx;
  private final AvailabilityCheck availability;
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
    // TODO: this is right for one caller at a time, and loses updates as soon as two reservations overlap. On a
    //  virtual thread, await() suspends this reservation and frees the verticle's context: another reservation runs
    //  in that gap, reads the same count, and one write overwrites the other. Make the read, the decision and the
    //  write one critical section, held across the await (vertx.sharedData() has local locks, and a Vert.x lock can be
    //  awaited too), and make sure every way out of it, an exception included, lets the next reservation in.
    int free = freeSeats;                                   // read
    if (free == 0) {
      return false;                                         // decide: sold out
    }
    boolean allowed = availability.check(who).await();     // await the external check: the context is free meanwhile
    if (!allowed) {
      return false;                                         // decide: refused, the seat stays free
    }
    freeSeats = free - 1;                                   // write
    return true;
  }

  /** The seats still free. */
  public int freeSeats() {
    return freeSeats;
  }
}
