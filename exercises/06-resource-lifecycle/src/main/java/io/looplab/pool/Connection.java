package io.looplab.pool;

import io.vertx.core.Future;

/**
 * One connection, on loan from a {@link ConnectionPool}: the caller that acquired it owns it until it closes it.
 * Given code.
 *
 * <p>Concurrency contract: use it from the event loop that acquired it. It runs one query at a time.
 */
public interface Connection {

  /**
   * Asks the database for the report called {@code name}.
   *
   * @return a future that succeeds with the report's text, or fails with the database's error. It can take as long
   *     as the database likes, and a database in trouble may never answer at all. A connection whose link to the
   *     database broke may also throw instead of returning a future.
   */
  Future<String> query(String name);

  /**
   * Gives the connection back to its pool: call it exactly once per {@link ConnectionPool#acquire()}, on every path.
   * Closing while a query is still running abandons that query: the pool resets the connection before it serves the
   * next caller, and whatever the abandoned query answers later is only its late echo. Closing twice is a bug: by
   * then the connection may already be someone else's.
   *
   * @return a future that succeeds once the connection is back in the pool
   */
  Future<Void> close();
}
