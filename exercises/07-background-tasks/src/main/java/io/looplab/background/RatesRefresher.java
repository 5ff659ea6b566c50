package io.looplab.background;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A background job with an owner: every {@code period} it asks the {@link RatesFeed} for the rate of each currency,
 * one after another, and once all have answered it publishes them together ({@link #rates()}). This verticle owns the
 * job: it starts it in {@link #start()} and ends it in {@link #stop()}. Every method runs on the verticle's event
 * loop, and every timer comes from the {@link Scheduler} it is given.
 *
 * <p>It works, as long as nothing goes wrong: every run is quick, the feed never fails, and the verticle is never
 * undeployed. Read the README for what it must also survive.
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
    // TODO: keep what setPeriodic returns: stop() needs it.
    scheduler.setPeriodic(period.toMillis(), id -> tick());
    return Future.succeededFuture();
  }

  @Override
  public Future<?> stop() {
    // TODO: the job must end with its owner: no run may start after this, and no run in flight may go on once the
    //  undeploy has completed (wait for it, or cancel it).
    return Future.succeededFuture();
  }

  /** One tick of the periodic timer: a new run. */
  private void tick() {
    // TODO: never start a run while the one before is still going.
    started++;
    // TODO: a failed run must be counted and kept for status(), and must not stop the schedule.
    refresh().onSuccess(published -> succeeded++);
  }

  /**
   * One run: the rate of each currency in turn, then all of them published together. Fails with the feed's error
   * (and publishes nothing), or with a {@link java.util.concurrent.TimeoutException} once {@code deadline} has
   * passed; the run is then abandoned: it asks the feed nothing more and publishes nothing, whenever the feed's late
   * answer comes.
   */
  public Future<Map<String, Double>> refresh() {
    // TODO: give the run its deadline (a timer from the scheduler), and stop the work once it has passed.
    Map<String, Double> fresh = new LinkedHashMap<>();
    Future<Void> steps = Future.succeededFuture();
    for (String currency : currencies) {
      steps = steps.compose(v -> feed.rate(currency).map(rate -> {
        fresh.put(currency, rate);
        return null;
      }));
    }
    return steps.map(v -> {
      rates = Map.copyOf(fresh);
      return rates;
    });
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
