package io.looplab.background;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Points;
import io.looplab.grader.guard.GivenCode;
import io.looplab.grader.leaks.ShutdownCheck;
import io.looplab.grader.sync.Gate;
import io.looplab.grader.sync.ManualClock;
import io.looplab.grader.testkit.WarmUp;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static io.looplab.background.ScheduleTest.PERIOD;
import static io.looplab.grader.testkit.Checks.require;

/**
 * Grades the job's end, with its owner: once the undeploy has completed, nothing of the job runs any more, neither a
 * run that was in flight (awaited or cancelled, either is fine) nor a timer left on the scheduler; and the undeploy
 * does complete, at the latest when the run in flight reaches its deadline. The scheduler is shared and outlives the
 * verticle, so what the job set on it stays set until the job cancels it.
 */
@GradedVertxTest
@GivenCode(value = Scheduler.class, is = "the scheduler the job is given")
@GivenCode(value = RatesFeed.class, is = "the rates feed")
@GivenCode(value = JobStatus.class, is = "the job's status record")
@Order(4)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@DisplayName("07 Background tasks: the undeploy")
class UndeployTest {

  static final Duration DEADLINE = Duration.ofMillis(2_500);
  /** How far the test moves the clock after the undeploy, to see whether anything of the job still fires. */
  static final int PERIODS_AFTER = 10;

  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(SceneWarmUp::steps);
  }

  @Test
  @Order(1)
  @Points(4)
  @DisplayName("a run in flight at undeploy is awaited or cancelled: nothing of it goes on once the undeploy has "
      + "completed, and the undeploy completes by the run's deadline")
  void aRunInFlightDoesNotOutliveTheUndeploy(Vertx vertx) {
    RatesScene scene = new RatesScene(vertx, List.of("USD", "GBP"), PERIOD, DEADLINE);
    scene.advance(PERIOD.toMillis());
    Gate<Double> usd = scene.call(1, "One period (" + PERIOD.toMillis() + " ms) after start, the job should have "
        + "started its first run and asked the feed for USD, but it has not");
    long runDeadline = scene.clock.now() + DEADLINE.toMillis();

    Future<Void> undeploy = scene.undeploy();
    if (undeploy.isComplete()) {
      // The job says it has ended: then its run must have been cancelled, and must really stop.
      int callsAtUndeploy = scene.calls();
      scene.answer(usd, 1.10);
      require(scene.calls() == callsAtUndeploy, "The undeploy completed at once, while the run was waiting for the "
          + "feed's USD; then the feed answered, and the run went on as if nothing had happened: it called the feed "
          + "again after its owner was gone (calls so far: " + scene.callsInWords() + "). A stop() that completes while work is in flight "
          + "lets that work outlive the verticle (a redeploy then runs two jobs, a closing Vert.x pulls the ground "
          + "from under it). Either wait for the run in flight (return a future that completes when it ends), or "
          + "cancel it so that it stops (fail it, and check before each step that it is still wanted).");
      scene.answerAll(1.10);
      require(scene.rates().isEmpty(), "The undeploy completed while the run was in flight, and the run still "
          + "published " + scene.rates() + " afterwards. Once the undeploy has completed, nothing of the job may run.");
    } else {
      // The job waits for its run: let it take its next step, then leave the feed silent until the deadline.
      scene.answer(usd, 1.10);
      Gate<Double> gbp = scene.call(2, "The undeploy is waiting for the run in flight, so the run should go on when "
          + "the feed answers USD and ask for GBP, but it did not");
      scene.advance(runDeadline - scene.clock.now());
      require(undeploy.isComplete(), "The undeploy was still waiting at t=" + scene.clock.now() + " ms, the "
          + "deadline of the run in flight, with the feed silent (calls: " + scene.callsInWords() + "). Waiting for "
          + "the run is right, but only until the run ends, and at its deadline it does: stop() must complete "
          + "then. An undeploy that never completes hangs every redeploy and the shutdown of the whole Vert.x"
          + scene.timersInWords() + ".");
      scene.answer(gbp, 0.85);
      require(scene.rates().isEmpty(), "The run in flight at undeploy was abandoned at its deadline, and yet it "
          + "published " + scene.rates() + " when the late answer came, after the undeploy had completed.");
    }
    require(undeploy.succeeded(), "The undeploy failed (" + undeploy.cause() + "). A run that failed or was "
        + "cancelled is the job's business: stop() should still complete successfully.");
    List<ManualClock.Timer> left = scene.clock.pending();
    int callsAfterUndeploy = scene.calls();
    scene.advance(PERIODS_AFTER * PERIOD.toMillis());
    require(left.isEmpty() && scene.calls() == callsAfterUndeploy, "Once the undeploy had completed, "
        + (left.isEmpty() ? "the job had no timer left on its Scheduler" : "still scheduled on the job's Scheduler: "
        + left.stream().map(Object::toString).collect(Collectors.joining("; "))) + "; then the test moved the clock "
        + PERIODS_AFTER + " periods on, and the job made " + (scene.calls() - callsAfterUndeploy) + " more call(s) "
        + "to the feed (calls so far: " + scene.callsInWords() + "). Whatever the job sets on the Scheduler, it "
        + "cancels by the end of the undeploy: its periodic timer in stop(), and a timer for a next run is never set "
        + "by a run that ends once stop() has been called.");
  }

  @Test
  @Order(2)
  @Points(3)
  @DisplayName("after runs that succeed, fail, throw and time out, undeploying leaves nothing behind: no timer on the "
      + "scheduler, nothing firing later, nothing open in Vert.x")
  void undeployLeavesNothingBehind(Vertx vertx) {
    Duration deadline = Duration.ofMillis(500);
    RatesScene scene = new RatesScene(vertx, List.of("USD"), PERIOD, deadline);
    scene.answer(scene.nextRun("The job should start its first run within two periods of start"), 1.10);
    scene.fail(scene.nextRun("After a first run that went well, the job should start a second run"));
    Gate<Double> late = scene.nextRun("After a failed run, the job should start a third run");
    scene.advance(deadline.toMillis());
    scene.answer(late, 1.20);
    // The last run ends in time, and the undeploy comes right after, with its deadline timer (if any) still due.
    scene.answer(scene.nextRun("After a run past its deadline, the job should start a fourth run"), 1.30);
    JobStatus status = scene.status();
    require(status.started() == 4 && status.succeeded() == 2 && status.failed() == 2, "Four runs (ok, feed failed, "
        + "past its deadline, ok) should leave status() at 4 started, 2 succeeded, 2 failed, but it says " + status
        + ".");

    requireNothingLeftAfterUndeploy(vertx, scene);

    // Runs that end in a failure, the last one right before the undeploy: their deadline timers (long here, so
    // that none has fired on its own by then) must be gone too.
    RatesScene failing = new RatesScene(vertx, List.of("USD", "GBP"), PERIOD, Duration.ofMillis(5_000));
    failing.answer(failing.nextRun("The job should start its first run within two periods of start"), 1.10);
    failing.fail(failing.call(2, "Once the feed answered USD, the run should ask it for GBP"));
    failing.throwOnNextCall("USD");
    failing.advance(PERIOD.toMillis());
    JobStatus failed = failing.status();
    require(failed.started() == 2 && failed.failed() == 2, "Two runs (the feed failed GBP, then threw on USD) "
        + "should leave status() at 2 started, 2 failed, but it says " + failed + ".");
    requireNothingLeftAfterUndeploy(vertx, failing);
  }

  /** Undeploys the scene's job, checks that nothing is left open, on Vert.x or on the job's Scheduler. */
  private static void requireNothingLeftAfterUndeploy(Vertx vertx, RatesScene scene) {
    ShutdownCheck.assertCleanUndeploy(vertx, scene.deploymentId);

    List<ManualClock.Timer> left = scene.clock.pending();
    Map<ManualClock.Timer, Integer> firedBefore = left.stream().collect(Collectors.toMap(t -> t, ManualClock.Timer::fired));
    int calls = scene.calls();
    scene.clock.advance(PERIOD.multipliedBy(PERIODS_AFTER));
    ManualClock.runUntilIdle(scene.context);
    int firedAfter = left.stream().mapToInt(t -> t.fired() - firedBefore.get(t)).sum();
    require(left.isEmpty(), "Still scheduled on the job's Scheduler after undeploy: " + left.stream()
        .map(Object::toString).collect(Collectors.joining("; ")) + ". When the test moved the clock " + PERIODS_AFTER
        + " periods on, they fired " + firedAfter + " time(s) and the job made " + (scene.calls() - calls) + " call(s) "
        + "to the feed, with its owner gone. The scheduler is shared and outlives the verticle: whatever the job sets on it, the "
        + "job cancels: the periodic timer in stop(), with the id setPeriodic returned, and each run's deadline timer "
        + "as soon as the run ends before it, however it ends: with rates, with a failure, or with a throw.");
  }
}
