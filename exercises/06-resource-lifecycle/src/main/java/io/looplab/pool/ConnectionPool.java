package io.looplab.pool;

import io.vertx.core.Future;

/**
 * A small pool of database connections. Given code: the tests bring their own pool, which counts every connection
 * handed out and every one given back.
 *
 * <p>Concurrency contract: call it from the event loop of the verticle that uses it. {@link #acquire()} never waits
 * for a connection to come back: when every connection is out, it fails at once with a
 * {@link PoolExhaustedException}. So a connection that is never given back is lost for good, and a pool of N that
 * lost N connections refuses every later caller.
 */
public interface ConnectionPool {

  /**
   * Hands out a free connection. The caller owns it until it calls {@link Connection#close()}, exactly once, which
   * gives it back to the pool.
   *
   * @return a future that succeeds with a connection, or fails with {@link PoolExhaustedException} when every
   *     connection is out
   */
  Future<Connection> acquire();

  /** How many connections the pool has in all. */
  int size();
}
