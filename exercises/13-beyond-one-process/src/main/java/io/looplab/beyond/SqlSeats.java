package io.looplab.beyond;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;

/**
 * Part one: the free seats of one show live in a database table that several processes share,
 * {@code seats(show VARCHAR PRIMARY KEY, free INT NOT NULL)}.
 *
 * <p>Concurrency contract: two or more processes (JVMs) run this class against the same table at the same time, and
 * each of them calls {@link #reserve} again while its earlier reservations are still waiting for their check. The
 * count must come out right across all of them: one seat per caller told {@code true}, never below zero.
 */
public class SqlSeats {

  private final Vertx vertx;
  private final Pool pool;
  private final String show;
  private final AvailabilityCheck availability;

  public SqlSeats(Vertx vertx, Pool pool, String show, AvailabilityCheck availability) {
    this.vertx = vertx;
    this.pool = pool;
    this.show = show;
    this.availability = availability;
  }

  /**
   * Reserves one seat of the show for {@code who}, once the availability check agrees.
   *
   * @return a future that succeeds with {@code true} when the seat is theirs, with {@code false} when the show is
   *     sold out or the check refused them (no seat is taken), and fails when the check or the database fails
   */
  public Future<Boolean> reserve(String who) {
    // TODO: this is exercise 09's answer, and it is right inside one process: the local lock makes the read, the
    //  check and the write one critical section. But a local lock lives in this JVM's memory. The other process
    //  has a lock of its own, reads the same count while this one awaits its check, and writes the same count
    //  minus one: two callers told yes, one seat taken off. Let the database make the decision and the write one
    //  atomic step (an UPDATE whose WHERE refuses a sold-out show, then look at how many rows it changed), or use
    //  a transaction that locks the row.
    return vertx.sharedData().withLocalLock("seats:" + show, () ->
        pool.preparedQuery("SELECT free FROM seats WHERE show = ?").execute(Tuple.of(show)).compose(rows -> {
          int free = rows.iterator().next().getInteger(0);                       // read
          if (free <= 0) {
            return Future.succeededFuture(false);                               // decide: sold out
          }
          return availability.check(who).compose(allowed -> {                    // await the check
            if (!allowed) {
              return Future.succeededFuture(false);                             // decide: refused
            }
            return pool.preparedQuery("UPDATE seats SET free = ? WHERE show = ?") // write
                .execute(Tuple.of(free - 1, show))
                .map(updated -> true);
          });
        }));
  }
}
