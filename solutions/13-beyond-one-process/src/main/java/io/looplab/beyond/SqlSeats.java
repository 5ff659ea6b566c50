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

  /**
   * The decision and the write in one statement. The database runs it atomically on the row: no other process, and
   * no other reservation of this one, can come between "is a seat free?" and "take it".
   */
  private static final String TAKE_ONE_SEAT = "UPDATE seats SET free = free - 1 WHERE show = ? AND free > 0";

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
    // No lock at all: nothing read before the await is used after it. The check is asked first, and the database
    // alone decides whether a seat is left at the moment of the write.
    return availability.check(who).compose(allowed -> {
      if (!allowed) {
        return Future.succeededFuture(false);
      }
      return pool.preparedQuery(TAKE_ONE_SEAT).execute(Tuple.of(show))
          // One row changed: the seat is ours. None: the WHERE found no free seat, so the show is sold out.
          .map(result -> result.rowCount() == 1);
    });
  }
}
