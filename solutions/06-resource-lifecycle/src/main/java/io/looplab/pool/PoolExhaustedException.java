package io.looplab.pool;

/** Every connection of the pool is out: {@link ConnectionPool#acquire()} fails with this at once. Given code. */
public class PoolExhaustedException extends RuntimeException {

  public PoolExhaustedException(String message) {
    super(message);
  }
}
