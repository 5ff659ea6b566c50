package io.looplab.beyond;

import io.vertx.core.Future;
import io.vertx.core.Vertx;

/**
 * Part two: the free seats of one show live in a {@link SeatLedger} that offers only a plain read and a plain write.
 * The database cannot decide for you this time, so the nodes must take turns.
 *
 * <p>Concurrency contract: two or more nodes of a Vert.x cluster (separate JVMs, clustered with Hazelcast) run this
 * class for the same show at the same time. The count must come out right across all of them: one seat per caller
 * told {@code true}, never below zero.
 */
public class ClusterSeats {

  private final Vertx vertx;
  private final SeatLedger ledger;
  private final String show;

  public ClusterSeats(Vertx vertx, SeatLedger ledger, String show) {
    this.vertx = vertx;
    this.ledger = ledger;
    this.show = show;
  }

  /**
   * Reserves one seat of the show for {@code who}.
   *
   * @return a future that succeeds with {@code true} when the seat is theirs, with {@code false} when the show is
   *     sold out (no seat is taken), and fails when the ledger fails
   */
  public Future<Boolean> reserve(String who) {
    // TODO: right in one JVM, wrong in a cluster. The local lock keeps this node's reservations apart, but the
    //  other node has its own local lock, reads the same count between this node's read and its write, and one
    //  write overwrites the other. A clustered Vert.x has locks that every node sees: vertx.sharedData() has them
    //  too. Hold one across the read, the decision and the write, and let go of it on every way out.
    return vertx.sharedData().withLocalLock("seats:" + show, () ->
        ledger.read(show).compose(free -> {                                    // read
          if (free <= 0) {
            return Future.succeededFuture(false);                             // decide: sold out
          }
          return ledger.write(show, free - 1).map(written -> true);            // write
        }));
  }
}
