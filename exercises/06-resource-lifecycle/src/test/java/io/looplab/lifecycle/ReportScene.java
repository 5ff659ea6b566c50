package io.looplab.lifecycle;

import io.looplab.grader.Outcome;
import io.looplab.grader.leaks.ShutdownCheck;
import io.looplab.grader.races.Fresh;
import io.looplab.grader.races.PendingTimers;
import io.looplab.grader.sync.Gate;
import io.looplab.grader.sync.VerticleContext;
import io.looplab.grader.testkit.Await;
import io.looplab.grader.testkit.DeployedOnContext;
import io.looplab.grader.testkit.OnContext;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import org.opentest4j.AssertionFailedError;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.looplab.grader.testkit.Checks.require;

/**
 * One deployed ReportService, the test's {@link CountingPool} it borrows from, and the calls the test makes. Every
 * call into the service runs on the service's own event loop, as a request to the verticle would.
 */
final class ReportScene {

  /** How long the test waits for what a correct service does at once: a deployment, a query, an answer. */
  static final Duration WAIT = Duration.ofSeconds(5);
  /**
   * How long the test waits for a connection to come back once the report has answered. A correct service gives it
   * back in the very task that settles the report, or in the next; only a leak waits this out.
   */
  static final long BACK_WITHIN_MILLIS = 1_000;
  /** How long the test waits for an answer that a correct service gives in the same task: a caller who gave up. */
  static final Duration AT_ONCE = Duration.ofSeconds(2);
  /** A deadline that never passes in a test that is not about it. */
  static final Duration NO_DEADLINE = Duration.ofSeconds(60);
  /** How long the test waits for an undeploy: a correct stop() completes in the task that abandons the reports. */
  static final Duration UNDEPLOY_WITHIN = Duration.ofSeconds(3);

  final Vertx vertx;
  final CountingPool pool;
  final ReportService service;
  final String deploymentId;
  final Context context;

  ReportScene(Vertx vertx, int connections, Duration deadline) {
    this.vertx = vertx;
    this.pool = new CountingPool(connections);
    this.service = new ReportService(pool, deadline);
    DeployedOnContext deployed = DeployedOnContext.deploy(vertx, service, WAIT);
    this.deploymentId = deployed.deploymentId();
    this.context = deployed.context();
  }

  /** Asks the service for the report {@code name}, on its event loop; the caller can give up later. */
  Call report(String name) {
    return report(name, "");
  }

  /**
   * As {@link #report(String)}, for a caller the messages tell apart from another who asked for the same report:
   * {@code who} is said after the call, such as "(the second caller)". The name is a new String each time.
   */
  Call report(String name, String who) {
    Call call = new Call(Fresh.copyOf(name), who);
    OnContext.run(context, () -> {
      Future<String> future;
      try {
        future = service.report(name, call.gaveUp.future());
      } catch (RuntimeException thrown) {
        throw new AssertionFailedError("report(\"" + name + "\") threw " + thrown + " instead of returning a "
            + "future. A method that returns a Future reports every problem by failing it: the caller composes on "
            + "the future, and an exception thrown at it skips all of that.", thrown);
      }
      require(future != null, "report(\"" + name + "\") returned null instead of a future.");
      future.onComplete(done -> call.answeredHere().outcome.complete(done.succeeded()
          ? Outcome.of(String.valueOf(done.result())) : Outcome.failed(done.cause())));
    }, WAIT);
    return call;
  }

  /** Waits for query number {@code n} (from 1), made for {@code call}, and returns its gate. */
  Gate<String> awaitQuery(int n, Call call) {
    if (!pool.database.arrivesWithin(n, WAIT.toMillis())) {
      throw new AssertionFailedError("report(\"" + call.name + "\") did not query the database within "
          + Await.inWords(WAIT) + (call.hasAnswered() ? ": it answered " + call.outcomeNow() + " instead" : "")
          + (pool.refusals().isEmpty() ? "" : ". The pool refused a connection: " + pool.refusals().get(
          pool.refusals().size() - 1)) + ".");
    }
    Gate<String> gate = pool.query(n - 1);
    require(call.name.equals(gate.argument()), "Query number " + n + " asked for the report '" + gate.argument()
        + "', but the test expected one for '" + call.name + "': report(name) must query name.");
    return gate;
  }

  /**
   * Waits until query number {@code n} (from 1) is made for {@code call}, or {@code call} has answered without making
   * it (say, because the pool refused it a connection): the query's gate, or empty. Bounded by {@link #WAIT}; each
   * look is short, so a report that answers at once is seen at once.
   */
  Optional<Gate<String>> awaitQueryOrAnswer(int n, Call call) {
    long end = System.nanoTime() + WAIT.toNanos();
    while (System.nanoTime() < end) {
      if (pool.database.arrivesWithin(n, 10)) {
        return Optional.of(awaitQuery(n, call));
      }
      if (call.hasAnswered()) {
        return Optional.empty();
      }
    }
    return Optional.of(awaitQuery(n, call));
  }

  /**
   * Lets the event loop run what the last step queued (a continuation, and one more) before the test looks. Only
   * used before checks that a correct service passes whatever it queued; anything to wait for is waited for.
   */
  void flush() {
    for (int round = 0; round < 3; round++) {
      OnContext.run(context, () -> { }, WAIT);
    }
  }

  /** Fails unless every connection is back in the pool, each given back once, within {@link #BACK_WITHIN_MILLIS}. */
  void assertEveryConnectionBack(String after) {
    if (!pool.awaitAllBack(BACK_WITHIN_MILLIS)) {
      List<CountingPool.Lease> out = pool.out();
      throw new AssertionFailedError("Connection leak " + after + ": " + out.size() + " of " + pool.size()
          + " connection(s) still out " + BACK_WITHIN_MILLIS + " ms later: " + CountingPool.describe(out) + ". A "
          + "connection that is not given back is lost for good: once the pool has lost them all, every report "
          + "fails with PoolExhaustedException. Give it back on every path, as try-with-resources would: "
          + "Future.eventually(connection::close) on the future of the use runs whatever its outcome (onSuccess, "
          + "map and a compose of the result run on success only), and also catch what the use throws.");
    }
    assertEachGivenBackOnce(after);
  }

  /**
   * Fails if a timer the service set is still scheduled once the reports are over, after the event loop has run what
   * the last step queued: a deadline belongs to its report, however the report ended.
   */
  void assertNoDeadlineLeft(String after) {
    flush();
    List<String> timers = PendingTimers.of(vertx);
    require(timers.isEmpty(), "Deadline left behind " + after + ": " + String.join(", ", timers) + " still "
        + (timers.size() == 1 ? "waits" : "wait") + " to fire, though no report is running (the deadline here is "
        + NO_DEADLINE.toSeconds() + " s). A deadline belongs to its report: cancel its timer however the report "
        + "ends (an answer, a failed query, a query that throws, a caller who gives up), with vertx.cancelTimer where "
        + "the answer is settled, or set it only once the query has started. At a thousand reports a second, timers "
        + "that outlive their report pile up by the thousand.");
  }

  /** Fails if the code closed any lease twice, or used a connection it had given back. */
  void assertEachGivenBackOnce(String after) {
    List<String> misuses = pool.misuses();
    require(misuses.isEmpty(), "A connection given back twice " + after + ": " + String.join("; ", misuses)
        + ". Give each connection back exactly once: after a second close, the pool counts a connection as free that "
        + "another caller may already hold, and two callers end up sharing one. When several things can end a "
        + "report (the query, the deadline, a caller giving up), let the first one settle its answer (tryComplete, "
        + "tryFail) and give the connection back once, when that answer is settled.");
  }

  /**
   * Undeploys the service with {@code running} in flight and waits, bounded, for the undeploy to end. Fails, saying
   * what was seen, when stop() failed or threw, or when the undeploy did not end in time: then it names the reports
   * that had not answered and the connections still out at that moment, because stop() waits for what it never
   * abandoned.
   */
  void undeployWhileRunning(List<Call> running) {
    CompletableFuture<Void> undeployed = vertx.undeploy(deploymentId).toCompletionStage().toCompletableFuture();
    try {
      undeployed.get(UNDEPLOY_WITHIN.toMillis(), TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.ExecutionException failed) {
      throw undeployFailed(running, failed.getCause());
    } catch (java.util.concurrent.TimeoutException late) {
      throw undeployNotFinished(running, Await.inWords(UNDEPLOY_WITHIN) + " after it began");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * {@link ShutdownCheck#assertCleanUndeploy} (nothing left behind: timers, threads, pools), with {@code running} in
   * flight. When the undeploy did not end in the time the check gives it, or failed, says what was seen at that
   * moment (the reports not answered, the connections still out) rather than a bare time-out.
   */
  void assertCleanUndeployWhileRunning(List<Call> running) {
    try {
      ShutdownCheck.assertCleanUndeploy(vertx, deploymentId);
    } catch (AssertionFailedError failed) {
      if (failed.getCause() instanceof java.util.concurrent.TimeoutException) {
        throw undeployNotFinished(running, "in the time the shutdown check gives it");
      }
      if (failed.getCause() instanceof java.util.concurrent.ExecutionException undeploy) {
        throw undeployFailed(running, undeploy.getCause());
      }
      throw failed;
    }
  }

  /** The undeploy failed: stop() threw, or its future failed. */
  private static AssertionFailedError undeployFailed(List<Call> running, Throwable error) {
    return new AssertionFailedError("The undeploy failed with " + error + ", with " + running.size()
        + (running.size() == 1 ? " report" : " reports") + " in flight (" + inWords(running) + "): stop() threw or "
        + "failed instead of abandoning them." + (error instanceof java.util.ConcurrentModificationException
        ? " A report fails at once when stop() fails its answer, and removes itself from the collection stop() is "
        + "walking: walk a copy of it." : ""), error);
  }

  private static String inWords(List<Call> calls) {
    return calls.stream().map(Call::toString).collect(java.util.stream.Collectors.joining(", "));
  }

  /** The undeploy did not end {@code when}: what was seen at that moment. */
  private AssertionFailedError undeployNotFinished(List<Call> running, String when) {
    String inFlight = inWords(running);
    List<String> silent = running.stream().filter(call -> !call.hasAnswered()).map(Call::toString).toList();
    return new AssertionFailedError("The undeploy had not finished " + when + ", with " + running.size()
        + (running.size() == 1 ? " report" : " reports") + " in flight (" + inFlight + "): stop()'s future had not "
        + "completed. At that moment " + (silent.isEmpty() ? "every report had answered"
        : String.join(", ", silent) + (silent.size() == 1 ? " still ran and had" : " still ran and had each")
        + " never answered") + ", and " + (pool.out().isEmpty() ? "every connection was back"
        : "the connections still out were " + CountingPool.describe(pool.out())) + ". " + (silent.isEmpty()
        ? "So stop() waited for something other than these reports: its future must complete once the reports it "
        + "abandoned have, connections back."
        : "stop() must abandon every report in flight (each one, even two for the same name) and complete once "
        + "their connections are back: a stop() that waits for a report it did not abandon waits for a query that "
        + "may never end."));
  }

  /** What one caller asked, and what it heard. */
  final class Call {
    final String name;
    final Promise<Void> gaveUp = Promise.promise();
    private final String who;
    private final long calledAtNanos = System.nanoTime();
    private final CompletableFuture<Outcome<String>> outcome = new CompletableFuture<>();
    private volatile Context answeredOn;
    private volatile boolean answeredOnTheLoop;
    private volatile long answeredAtNanos;
    private volatile String answeredThread;

    private Call(String name, String who) {
      this.name = name;
      this.who = who;
    }

    /** "report("ada")", or "report("ada") (the second caller)". */
    @Override
    public String toString() {
      return "report(\"" + name + "\")" + (who.isEmpty() ? "" : " (" + who + ")");
    }

    /** Milliseconds from just before the call to its answer; -1 before it answered. */
    long millisToAnswer() {
      return hasAnswered() ? TimeUnit.NANOSECONDS.toMillis(answeredAtNanos - calledAtNanos) : -1;
    }

    boolean hasAnswered() {
      return outcome.isDone();
    }

    /** What the caller heard so far, or none. */
    Outcome<String> outcomeNow() {
      return outcome.getNow(Outcome.none());
    }

    /** Waits up to {@code within} for the answer; fails with the test's words, {@code ifLate}, when none came. */
    Outcome<String> outcome(Duration within, String ifLate) {
      try {
        return outcome.get(within.toMillis(), TimeUnit.MILLISECONDS);
      } catch (java.util.concurrent.TimeoutException late) {
        throw new AssertionFailedError("report(\"" + name + "\") did not answer within " + Await.inWords(within)
            + " " + ifLate + ".");
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }

    /** The caller gives up, on the service's event loop: {@code callerGaveUp} succeeds. */
    void giveUp() {
      OnContext.run(context, () -> gaveUp.tryComplete(), WAIT);
    }

    /** The caller gives up another way, on the service's event loop: {@code callerGaveUp} fails with {@code why}. */
    void giveUpWith(Throwable why) {
      OnContext.run(context, () -> gaveUp.tryFail(why), WAIT);
    }

    private Call answeredHere() {
      answeredAtNanos = System.nanoTime();
      answeredOn = Vertx.currentContext();
      answeredThread = Thread.currentThread().getName();
      answeredOnTheLoop = VerticleContext.isCurrent(context);
      return this;
    }

    /**
     * True when the answer reached the caller on the service's own event loop: its context, or a duplicate of it (a
     * vertx.timer completion runs on one), on its thread.
     */
    boolean answeredOnTheServicesLoop() {
      return answeredOnTheLoop;
    }

    /** Where the answer reached the caller, in words: "another Vert.x context than the verticle's", ... */
    String answeredWhere() {
      return VerticleContext.describe(answeredOn, context) + ", on the thread " + answeredThread;
    }
  }
}
