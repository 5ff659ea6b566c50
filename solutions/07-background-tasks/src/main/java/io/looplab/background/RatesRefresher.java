package io.looplab.background;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeoutException;

/**
 * A background job with an owner: every {@code period} it asks the {@link RatesFeed} for the rate of each currency,
 * one after another, and once all have answered it publishes them together ({@link #rates()}). This verticle owns the
 * job: it starts it in {@link #start()} and ends it in {@link #stop()}. Every method runs on the verticle's event
 * loop, and every timer comes from the {@link Scheduler} it is given.
 */
public class RatesRefresher extends VerticleBase {

  private final Scheduler scheduler;
  private final RatesFeed feed;
  private final List<String> currencies;
  private final Duration period;
  private final Duration deadline;

  /** The rates of the last run that finished; replaced whole, never piece by piece. */
  private Map<String, Double> rates = Map.of();
  private long started;
  private long succeeded;
  private long failed;
  private Throwable lastFailure;

  /** The periodic timer's id: the handle that lets stop() cancel it. Without it, the timer can never be stopped. */
  private long periodic = -1;
  /** Completes when the run in flight has ended, however it ended; null while no run is in flight. */
  private Future<Void> inFlight;

  public RatesRefresher(Scheduler scheduler, RatesFeed feed, List<String> currencies, Duration period,
      Duration deadline) {
    this.scheduler = scheduler;
    this.feed = feed;
    this.currencies = List.copyOf(currencies);
    this.period = period;
    this.deadline = deadline;
  }

  @Override
  public Future<?> start() {
    // Keep the id: the owner that starts a timer is the one that must cancel it.
    periodic = scheduler.setPeriodic(period.toMillis(), id -> tick());
    return Future.succeededFuture();
  }

  @Override
  public Future<?> stop() {
    // No new run from now on...
    scheduler.cancelTimer(periodic);
    // ...and the run in flight, if any, is awaited: the undeploy completes once it has ended. Its deadline bounds
    // that wait, so the undeploy always completes. inFlight never fails, so neither does the undeploy.
    return inFlight == null ? Future.succeededFuture() : inFlight;
  }

  /** One tick of the periodic timer: a new run, unless the one before is still going. */
  private void tick() {
    if (inFlight != null) {
      // The run before took longer than a period: skip this tick rather than run two at once. The next tick after
      // it ends starts the next run.
      return;
    }
    started++;
    Promise<Void> ended = Promise.promise();
    // Set before the run starts: a run that ends at once (a feed that throws) clears it again in the same breath.
    inFlight = ended.future();
    refresh().onComplete(outcome -> {
      // Every run ends here, however it ended: counted, the error kept for status(), and the way cleared for the
      // next tick. A failure is reported, never thrown at Vert.x and never left to stop the schedule.
      if (outcome.succeeded()) {
        succeeded++;
      } else {
        failed++;
        lastFailure = outcome.cause();
      }
      inFlight = null;
      ended.complete();
    });
  }

  /**
   * One run: the rate of each currency in turn, then all of them published together. Fails with the feed's error
   * (and publishes nothing), or with a {@link TimeoutException} once {@code deadline} has passed; the run is then
   * abandoned: it asks the feed nothing more and publishes nothing, whenever the feed's late answer comes.
   */
  public Future<Map<String, Double>> refresh() {
    Promise<Map<String, Double>> outcome = Promise.promise();
    // The deadline is a timer that ends the run from outside: the caller hears a TimeoutException at once...
    long deadlineTimer = scheduler.setTimer(deadline.toMillis(), id -> outcome.tryFail(new TimeoutException(
        "the rates refresh did not finish within its deadline of " + deadline.toMillis() + " ms")));
    Map<String, Double> fresh = new LinkedHashMap<>();
    Future<Void> steps = Future.succeededFuture();
    for (String currency : currencies) {
      steps = steps.compose(v -> {
        // ...and the work sees it before each step: an abandoned run stops here. (compose also turns a feed that
        // throws into a failed step, so the error reaches the caller as a failure.)
        if (outcome.future().isComplete()) {
          return Future.failedFuture(new CancellationException("the run was abandoned at its deadline"));
        }
        return feed.rate(currency).map(rate -> {
          fresh.put(currency, rate);
          return null;
        });
      });
    }
    steps.onComplete(done -> {
      if (outcome.future().isComplete()) {
        return; // the deadline passed first: nobody waits for this result any more, and it must not be published
      }
      if (done.succeeded()) {
        rates = Map.copyOf(fresh);
        outcome.complete(rates);
      } else {
        outcome.fail(done.cause());
      }
    });
    // A run that ended in time cancels its deadline: a timer left behind per run piles up, and outlives the verticle.
    return outcome.future().andThen(done -> scheduler.cancelTimer(deadlineTimer));
  }

  /** The rates of the last run that finished in time; empty before the first. */
  public Map<String, Double> rates() {
    return rates;
  }

  /** What the job has done so far. */
  public JobStatus status() {
    return new JobStatus(started, succeeded, failed, lastFailure);
  }
}
