package io.looplab.lifecycle;

import io.looplab.pool.Connection;
import io.looplab.pool.ConnectionPool;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

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
  /** The reports still running: how to abandon each one, and its whole future (done once its connection is back). */
  private final Map<Promise<String>, Future<String>> inFlight = new LinkedHashMap<>();

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
    // Abandon every report still running: each one's answer fails, so using() gives its connection back. stop()
    // completes once every one of them has, so that nothing borrowed outlives the undeploy.
    List<Future<String>> running = new ArrayList<>(inFlight.values());
    List<Promise<String>> abandon = new ArrayList<>(inFlight.keySet());
    abandon.forEach(answer -> answer.tryFail(new IllegalStateException("the report service stopped")));
    return Future.join(running).otherwiseEmpty();
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
    // One promise is the report's answer, and four racers want to settle it: the query, the deadline, the caller
    // giving up, and stop(). The first one wins; tryComplete/tryFail make every later one lose quietly. The
    // connection is given back when the answer is settled, not when the query ends: so it comes back once, at once.
    Promise<String> answer = Promise.promise();
    Future<String> report = using(pool.acquire(), connection -> firstOf(connection.query(name), answer, name,
        callerGaveUp));
    if (!report.isComplete()) {
      inFlight.put(answer, report);
      report.onComplete(done -> inFlight.remove(answer));
    }
    return report;
  }

  /**
   * The async try-with-resources: once {@code acquire} has a connection, runs {@code use} on it and gives the
   * connection back when the use's future completes, whatever its outcome, and also when {@code use} throws instead
   * of returning a future. The outcome of the use passes through unchanged.
   */
  static <T> Future<T> using(Future<Connection> acquire, Function<Connection, Future<T>> use) {
    return acquire.compose(connection -> {
      Future<T> used;
      try {
        used = use.apply(connection);
      } catch (RuntimeException thrown) {
        used = Future.failedFuture(thrown);           // a use that throws is a failed use: still give it back
      }
      return used.eventually(connection::close);      // on every path, exactly once: eventually runs once
    });
  }

  /** Settles {@code answer} with whichever comes first: the query's outcome, the deadline, or the caller giving up. */
  private Future<String> firstOf(Future<String> query, Promise<String> answer, String name, Future<?> callerGaveUp) {
    query.onComplete(answer::tryComplete, answer::tryFail);
    long timer = vertx.setTimer(deadline.toMillis(), id -> answer.tryFail(new TimeoutException(
        "the report '" + name + "' took longer than " + deadline.toMillis() + " ms")));
    callerGaveUp.onComplete(gaveUp -> answer.tryFail(new CancellationException(
        "the caller gave up on the report '" + name + "'")));
    // The deadline's timer goes with the answer: left scheduled, every quick report would leave one behind.
    return answer.future().andThen(done -> vertx.cancelTimer(timer));
  }
}
