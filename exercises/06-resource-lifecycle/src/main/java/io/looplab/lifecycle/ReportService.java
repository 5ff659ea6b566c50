package io.looplab.lifecycle;

import io.looplab.pool.ConnectionPool;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;

import java.time.Duration;

/**
 * Reports from a database, each read on a connection borrowed from a small {@link ConnectionPool}.
 *
 * <p>Concurrency contract: {@link #report} is called on this verticle's event loop, again while earlier reports are
 * still running, and every future it returns completes there. Whatever happens to a report, the connection it
 * borrowed goes back to the pool exactly once: the pool is small, and a connection lost is lost for good.
 */
public class ReportService extends VerticleBase {

  private final ConnectionPool pool;
  private final Duration deadline;

  /**
   * @param pool where the connections come from; the service borrows, it does not own the pool
   * @param deadline how long one report may take, from the moment it has its connection
   */
  public ReportService(ConnectionPool pool, Duration deadline) {
    this.pool = pool;
    this.deadline = deadline;
  }

  @Override
  public Future<?> stop() {
    // TODO: a report still running at undeploy must be abandoned: its caller hears a failure and its connection
    //  goes back to the pool before stop() completes.
    return Future.succeededFuture();
  }

  /**
   * The report called {@code name}: a connection from the pool, one query on it, and the connection given back,
   * exactly once, on every path.
   *
   * @param callerGaveUp completes (with any outcome) when the caller no longer wants the answer; it may never
   *     complete
   * @return a future that succeeds with the report's text; fails with the query's own error (a failed future, or what
   *     the query threw), or the pool's; fails with a {@link java.util.concurrent.TimeoutException} when the query
   *     has not answered within the deadline (not before it); and fails with a
   *     {@link java.util.concurrent.CancellationException} once the caller gives up, whatever {@code callerGaveUp}
   *     completed with. After a timeout or a caller who gave up, the connection is back in the pool at
   *     once, without waiting for the abandoned query, and whatever that query answers later changes nothing.
   */
  public Future<String> report(String name, Future<?> callerGaveUp) {
    // TODO: this gives the connection back only when the query succeeds. Give it back on every path (a failed
    //  query, a query that throws, the deadline, a caller who gives up, an undeploy), exactly once: the async
    //  counterpart of try-with-resources. Future.eventually runs a step whatever the outcome; a using(acquire, use)
    //  helper of your own can hold that pattern in one place.
    return pool.acquire().compose(connection -> connection.query(name).onSuccess(text -> connection.close()));
  }
}
