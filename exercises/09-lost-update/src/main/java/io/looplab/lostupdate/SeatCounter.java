package io.looplab.lostupdate;

import io.vertx.core.Future;
import io.vertx.core.Vertx;

/**
 * The free seats of one show, and the reservations that take them.
 *
 * <p>Concurrency contract: the counter is used from one event loop (the verticle that owns it), and
 * {@link #reserve} is called again while earlier reservations are still waiting for their availability check. The
 * count must come out right whatever order those checks answer in: one seat per caller told {@code true}, never
 * below zero.
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
   * Reserves one seat for {@code who}, once the availability check agrees.
   *
   * @return a future that succeeds with {@code true} when the seat is theirs, with {@code false} when the show is
   *     sold out or the check refused them (no seat is taken), and fails with the check's error when the check
   *     fails (no seat is taken either)
   */
  public Future<Boolean> reserve(String who) {
    // TODO: this is right for one caller at a time, and loses updates as soon as two reservations overlap. The
    //  read below and the write in the callback run in two different event-loop tasks, with the await of the
    //  check between them: another reservation runs in that gap, reads the same count, and one write overwrites
    //  the other. Make the read, the decision and the write one critical section, held across the await
    //  (vertx.sharedData() has local locks), and make sure every way out of it lets the next reservation in.
    int free = freeSeats;                                // read
    if (free == 0) {
      return Future.succeededFuture(false);              // decide: sold out
    }
    return availability.check(who).map(allowed -> {    // await the external check
      if (!allowed) {
        return false;                                    // decide: refused, the seat stays free
      }
      freeSeats = free - 1;                              // write
      return true;
    });
  }

  /** The seats still free. */
  public int freeSeats() {
    return freeSeats;
  }
}
