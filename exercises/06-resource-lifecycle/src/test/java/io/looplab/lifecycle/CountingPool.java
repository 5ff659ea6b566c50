package io.looplab.lifecycle;

import io.looplab.grader.sync.CallSite;
import io.looplab.grader.sync.Gate;
import io.looplab.grader.sync.GatedDependency;
import io.looplab.grader.sync.Signal;
import io.looplab.grader.sync.ThrownThrough;
import io.looplab.pool.Connection;
import io.looplab.pool.ConnectionPool;
import io.looplab.pool.PoolExhaustedException;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The test's pool: a few connections, and a book of every loan. Each {@link #acquire()} hands out a lease of its own
 * (a {@link Connection} that stands for one loan of one physical connection), so the pool can tell a second close of
 * the same lease, which gives back a connection that may by then be someone else's, from the close of the lease
 * that holds it now. Every query waits in {@link #database} until the test answers it. Nothing here throws at the
 * learner's code on a misuse: the pool notes it, and the test reports it with the learner's lines.
 */
final class CountingPool implements ConnectionPool {

  /** The database behind the connections: every query waits until the test answers it. */
  final GatedDependency<String, String> database = new GatedDependency<>();

  private final int size;
  private final Deque<String> free = new ArrayDeque<>();
  private final List<Lease> leases = new ArrayList<>();
  private final List<String> misuses = new ArrayList<>();
  private final List<String> refusals = new ArrayList<>();
  private final Signal changed = new Signal();
  private RuntimeException throwOnNextQuery;
  /** Where the last query that threw on purpose went up through the learner's code. */
  final ThrownThrough thrownThrough = new ThrownThrough();

  CountingPool(int size) {
    this.size = size;
    for (int i = 1; i <= size; i++) {
      free.add("conn-" + i);
    }
  }

  @Override
  public Future<Connection> acquire() {
    String at = CallSite.ofCurrentCall().orElse(null);
    synchronized (this) {
      if (free.isEmpty()) {
        String message = "all " + size + " connections of the pool are out: " + describe(out());
        refusals.add(message);
        return Future.failedFuture(new PoolExhaustedException(message));
      }
      Lease lease = new Lease(leases.size() + 1, free.poll(), at);
      leases.add(lease);
      changed.fire();
      return onCallersContext(Future.succeededFuture(lease));
    }
  }

  @Override
  public int size() {
    return size;
  }

  /** The next query, on any connection, throws {@code error} instead of returning a future. */
  synchronized void throwOnNextQuery(RuntimeException error) {
    throwOnNextQuery = error;
  }

  /** The leases not given back yet, in the order they were handed out. */
  synchronized List<Lease> out() {
    return leases.stream().filter(l -> l.closes == 0).toList();
  }

  /** Every loan so far. */
  synchronized List<Lease> leases() {
    return List.copyOf(leases);
  }

  /** What the code did wrong with its connections so far: second closes, queries on a connection given back. */
  synchronized List<String> misuses() {
    return List.copyOf(misuses);
  }

  /** The acquires the pool refused because every connection was out. */
  synchronized List<String> refusals() {
    return List.copyOf(refusals);
  }

  /** Waits up to {@code millis} until every connection is back; true if they are. */
  boolean awaitAllBack(long millis) {
    return changed.await(() -> out().isEmpty(), millis);
  }

  /**
   * {@code future} as a future of the caller's context, as a real Vert.x client hands out: its listeners run there,
   * and its own {@code timeout(...)} fires there.
   */
  private static <T> Future<T> onCallersContext(Future<T> future) {
    Context context = Vertx.currentContext();
    if (context == null) {
      return future;
    }
    Promise<T> promise = ((ContextInternal) context).promise();
    future.onComplete(promise);
    return promise.future();
  }

  /** "conn-1 (lease #1, for the report 'ada', acquired in report() at ReportService.java:40)", joined. */
  static String describe(List<Lease> leases) {
    return leases.stream().map(Lease::toString).collect(Collectors.joining("; "));
  }

  /** One loan of one physical connection: the {@link Connection} the learner's code holds. */
  final class Lease implements Connection {
    final int number;
    final String connection;
    final String acquiredAt;
    private String report;
    private int closes;
    private String firstClosedAt;

    private Lease(int number, String connection, String acquiredAt) {
      this.number = number;
      this.connection = connection;
      this.acquiredAt = acquiredAt;
    }

    @Override
    public Future<String> query(String name) {
      RuntimeException toThrow;
      synchronized (CountingPool.this) {
        if (closes > 0) {
          misuses.add("a query for '" + name + "' on " + this + ", which had already been given back");
          return Future.failedFuture(new IllegalStateException(connection + " is closed"));
        }
        report = name;
        toThrow = throwOnNextQuery;
        throwOnNextQuery = null;
      }
      if (toThrow != null) {
        throw thrownThrough.record(toThrow);
      }
      return onCallersContext(database.apply(name));
    }

    @Override
    public Future<Void> close() {
      String at = CallSite.ofCurrentCall().map(site -> "in " + site).orElse("from a callback of no line of yours");
      synchronized (CountingPool.this) {
        closes++;
        if (closes == 1) {
          firstClosedAt = at;
          free.add(connection);
        } else {
          Lease holder = leases.stream().filter(l -> l != this && l.connection.equals(connection) && l.closes == 0)
              .findFirst().orElse(null);
          misuses.add(this + " was given back " + closes + " times: first " + firstClosedAt + ", then again " + at
              + (holder == null ? "" : ", when " + connection + " was already on loan to lease #" + holder.number
              + (holder.report == null ? "" : " (the report '" + holder.report + "')")
              + ": a second close gives back a connection that is someone else's"));
        }
      }
      changed.fire();
      return Future.succeededFuture();
    }

    @Override
    public String toString() {
      synchronized (CountingPool.this) {
        return connection + " (lease #" + number + (report == null ? "" : ", for the report '" + report + "'")
            + (acquiredAt == null ? "" : ", acquired in " + acquiredAt) + ")";
      }
    }
  }

  /** The gate of query number {@code index} (from 0) if it was made. */
  Gate<String> query(int index) {
    return database.calledSoFar().get(index);
  }
}
