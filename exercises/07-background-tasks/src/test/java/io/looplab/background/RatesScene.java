package io.looplab.background;

import io.looplab.grader.sync.Gate;
import io.looplab.grader.sync.GatedDependency;
import io.looplab.grader.sync.ManualClock;
import io.looplab.grader.sync.ThrownThrough;
import io.looplab.grader.races.PendingTimers;
import io.looplab.grader.testkit.Await;
import io.looplab.grader.testkit.DeployedOnContext;
import io.looplab.grader.testkit.OnContext;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import static io.looplab.grader.testkit.Checks.require;

/**
 * One deployed RatesRefresher, on a clock the test moves by hand ({@link ManualClock}, behind the given
 * {@link Scheduler}), with a rates feed whose every call waits until the test answers it ({@link GatedDependency}).
 * Nothing happens on its own: a tick fires when the test moves the clock past it, a run goes on when the test answers
 * its call, and after each step the verticle's event loop runs until it has nothing left to do. So a check of what the
 * job has done, or not done, needs no waiting. Compiled with the graded tests, so the guard never takes its frames for
 * the learner's code.
 */
final class RatesScene {

  /** How long the test waits for what a correct solution does at once: a deployment, a step on the event loop. */
  static final Duration WAIT = Duration.ofSeconds(5);

  final Vertx vertx;
  final ManualClock clock = new ManualClock();
  final List<String> currencies;
  final Duration period;
  final Duration deadline;
  private final GatedDependency<String, Double> feed = new GatedDependency<>();
  /** Currencies whose next call throws instead of returning a future. */
  private final Set<String> throwing = ConcurrentHashMap.newKeySet();
  /** Where the last call that threw on purpose went up through the learner's code. */
  final ThrownThrough thrownThrough = new ThrownThrough();
  final RatesRefresher refresher;
  final Context context;
  final String deploymentId;
  /** How many calls the feed answered by throwing (they are not among the gated calls). */
  private volatile int thrown;
  /** The most feed calls seen waiting at once, and which they were. */
  private int mostInFlight;
  private String mostInFlightInWords = "none";
  /** The tasks on Vert.x's own clock (Netty's queues) that were there before the job was deployed. */

  RatesScene(Vertx vertx, List<String> currencies, Duration period, Duration deadline) {
    this.vertx = vertx;
    this.currencies = currencies;
    this.period = period;
    this.deadline = deadline;
    Scheduler scheduler = new Scheduler() {
      @Override
      public long setTimer(long delayMillis, Handler<Long> handler) {
        return clock.setTimer(delayMillis, handler);
      }

      @Override
      public long setPeriodic(long delayMillis, Handler<Long> handler) {
        return clock.setPeriodic(delayMillis, handler);
      }

      @Override
      public boolean cancelTimer(long id) {
        return clock.cancelTimer(id);
      }
    };
    this.refresher = new RatesRefresher(scheduler, this::rate, currencies, period, deadline);
    DeployedOnContext deployed = DeployedOnContext.deploy(vertx, refresher, WAIT);
    this.deploymentId = deployed.deploymentId();
    this.context = deployed.context();
    settle();
  }

  /** The feed the refresher is given: throws when the test said so, otherwise waits for the test's answer. */
  private Future<Double> rate(String currency) {
    if (throwing.remove(currency)) {
      thrown++;
      throw thrownThrough.record(FeedDown.thrownHere(FeedDown.CLOSED));
    }
    return feed.apply(currency);
  }

  /** The next call for {@code currency} throws instead of returning a future. */
  void throwOnNextCall(String currency) {
    throwing.add(currency);
  }

  /** Moves the clock by {@code millis}: every tick and deadline on the way fires, and what it started runs. */
  void advance(long millis) {
    clock.advance(Duration.ofMillis(millis));
    settle();
  }

  /** Lets the verticle's event loop run until it has nothing left to do, and notes how many calls wait. */
  void settle() {
    ManualClock.runUntilIdle(context);
    // Runs in flight at once, as the calls show them: one run asks for each currency once, so two calls for the same
    // currency waiting together are two runs. (A run may ask for all its currencies at once: that is one run.)
    Map<Object, List<Gate<Double>>> byCurrency = waiting().stream().collect(Collectors.groupingBy(Gate::argument));
    for (List<Gate<Double>> same : byCurrency.values()) {
      if (same.size() > mostInFlight) {
        mostInFlight = same.size();
        mostInFlightInWords = same.stream().map(g -> g.argument() + " (call " + (feed.calledSoFar().indexOf(g) + 1)
            + ")").collect(Collectors.joining(", ")) + ", at t=" + clock.now() + " ms";
      }
    }
  }

  /** How many calls the refresher has made to the feed so far. */
  int calls() {
    return feed.calls();
  }

  /** The calls still waiting for an answer. */
  List<Gate<Double>> waiting() {
    return feed.calledSoFar().stream().filter(Gate::isPending).toList();
  }

  /** The most calls for one currency seen waiting at once: the most runs seen in flight together. */
  int mostInFlight() {
    return mostInFlight;
  }

  /** The calls that were waiting together when {@link #mostInFlight()} was seen: "USD (call 1), USD (call 3), at t=2000 ms". */
  String mostInFlightInWords() {
    return mostInFlightInWords;
  }

  /**
   * Call number {@code n} (from 1), which the job must have made by now: fails with {@code ifMissing}, and what the
   * job did instead, when it has not. No wait: after a step, the event loop has already run all it had to run.
   */
  Gate<Double> call(int n, String ifMissing) {
    require(feed.calls() >= n, ifMissing + " (calls to the feed so far: " + callsInWords() + "; the clock is at t="
        + clock.now() + " ms" + timersInWords() + ")");
    return feed.calledSoFar().get(n - 1);
  }

  /**
   * The call of the run in flight: the one waiting already (a job may start its first run at once), or else the first
   * one the job makes as the clock moves on in steps of {@link #STEP_MILLIS}, two periods at most. Either way of
   * scheduling fits: a tick every period, or a timer set for a period after the last run ended.
   */
  Gate<Double> nextRun(String ifNone) {
    for (long moved = 0; moved < 2 * period.toMillis() && waiting().isEmpty(); moved += STEP_MILLIS) {
      advance(STEP_MILLIS);
    }
    require(!waiting().isEmpty(), ifNone + ", but none started within two periods (calls to the feed so far: "
        + callsInWords() + "; the clock is at t=" + clock.now() + " ms" + timersInWords() + ")");
    return waiting().get(0);
  }

  /** The clock's step in {@link #nextRun}: short beside every period and deadline of the tests. */
  static final long STEP_MILLIS = 100;

  /** "USD (answered), GBP (waiting)". */
  String callsInWords() {
    List<Gate<Double>> calls = feed.calledSoFar();
    String threw = thrown == 0 ? "" : thrown + " that threw";
    if (calls.isEmpty()) {
      return threw.isEmpty() ? "none" : threw;
    }
    return calls.stream().map(g -> g.argument() + (g.isPending() ? " (waiting)" : " (answered)"))
        .collect(Collectors.joining(", ")) + (threw.isEmpty() ? "" : ", and " + threw);
  }

  /**
   * Fails when the job has set a timer on Vert.x's own clock since it was deployed ({@code vertx.setTimer},
   * {@code vertx.timer}, {@code Future.timeout}), instead of taking it from its Scheduler; {@code when} says what the
   * job had just done.
   */
  void requireEveryTimerFromTheScheduler(String when) {
    // every kind of Vert.x timer: setTimer, setPeriodic, vertx.timer and Future.timeout, with the line that set it
    List<String> vertxTimers = PendingTimers.of(vertx);
    require(vertxTimers.isEmpty(), when + ", the job had a timer running on Vert.x's own clock "
        + "instead of the Scheduler it is given, out of the test clock's reach: " + String.join(", ",
        vertxTimers) + ". vertx.setTimer, vertx.timer and Future.timeout count "
        + "real milliseconds on Vert.x's clock; the test moves the Scheduler's clock by hand, and a timer that never "
        + "sees it fires at the wrong moment (in production, the Scheduler might be any clock). Set every timer of the "
        + "job, the deadline included, with the Scheduler's setTimer or setPeriodic.");
  }

  /** The timers the job has scheduled right now, for a message; and any it set with Vert.x itself. */
  String timersInWords() {
    List<ManualClock.Timer> pending = clock.pending();
    String own = pending.isEmpty() ? "; the job has no timer scheduled on its Scheduler"
        : "; scheduled on its Scheduler: " + pending.stream().map(Object::toString).collect(Collectors.joining("; "));
    List<String> vertxTimers = PendingTimers.of(vertx);
    return own + (vertxTimers.isEmpty() ? "" : "; and on Vert.x itself, out of the test clock's reach: "
        + String.join(", ", vertxTimers) + ". Take every timer from the Scheduler the job is given: the test runs "
        + "the job on a clock it moves by hand, and a Vert.x timer (vertx.setTimer, Future.timeout) never sees it");
  }

  /** Answers a waiting call with a rate, and lets what it starts run. */
  void answer(Gate<Double> call, double rate) {
    call.open(rate);
    settle();
  }

  /** Fails a waiting call with the feed's outage, and lets what it starts run. */
  void fail(Gate<Double> call) {
    fail(call, FeedDown.OUTAGE);
  }

  /** Fails a waiting call with an error that says {@code why}, and lets what it starts run. */
  void fail(Gate<Double> call, String why) {
    call.fail(new FeedDown(why));
    settle();
  }

  /** Answers every call still waiting, one after another, until the job makes no more: a run with a quick feed. */
  void answerAll(double rate) {
    for (int guard = 0; guard < 100 && !waiting().isEmpty(); guard++) {
      answer(waiting().get(0), rate);
    }
  }

  JobStatus status() {
    return OnContext.call(context, refresher::status, WAIT);
  }

  /**
   * A copy of what rates() returns now, taken on the verticle's event loop: a check compares what was published at
   * two moments, never one live map with itself.
   */
  Map<String, Double> rates() {
    return OnContext.call(context, () -> {
      Map<String, Double> published = refresher.rates();
      return published == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(published));
    }, WAIT);
  }

  /** Calls refresh() on the verticle's event loop, as a caller there would. */
  Future<Map<String, Double>> refresh() {
    Future<Map<String, Double>> run = OnContext.call(context, refresher::refresh, WAIT);
    settle();
    return run;
  }

  /**
   * Starts the undeploy from the verticle's own event loop, so that every step of it (stop(), then Vert.x's clean-up)
   * runs on that one loop, and lets the loop run until idle: when the undeploy can complete, it has.
   */
  Future<Void> undeploy() {
    Future<Void> undeploy = OnContext.call(context, () -> vertx.undeploy(deploymentId), WAIT);
    settle();
    return undeploy;
  }
}
