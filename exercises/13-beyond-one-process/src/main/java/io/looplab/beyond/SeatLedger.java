package io.looplab.beyond;

import io.vertx.core.Future;

/**
 * An old inventory service that keeps the free-seat count of each show and offers only a plain read and a plain
 * write: no "decrement if positive", no compare-and-set, no transactions. Every node of the cluster talks to the
 * same ledger, so a read and the write that follows it are two separate calls, and any node can call in between.
 */
public interface SeatLedger {

  /** The free seats of {@code show}, as the ledger has them now. */
  Future<Integer> read(String show);

  /** Sets the free seats of {@code show} to {@code free}, whatever they were. */
  Future<Void> write(String show, int free);
}
