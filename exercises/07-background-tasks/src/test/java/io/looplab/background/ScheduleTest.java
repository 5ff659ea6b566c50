package io.looplab.background;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Points;
import io.looplab.grader.guard.GivenCode;
import io.looplab.grader.sync.Gate;
import io.looplab.grader.testkit.WarmUp;
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

import static io.looplab.grader.testkit.Checks.require;

/**
 * Grades the schedule itself, on a clock the test moves by hand: a run every period while runs are quick, and never
 * two runs at once when one takes longer than the period.
 */
@GradedVertxTest
@GivenCode(value = Scheduler.class, is = "the scheduler the job is given")
@GivenCode(value = RatesFeed.class, is = "the rates feed")
@GivenCode(value = JobStatus.class, is = "the job's status record")
@Order(1)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@DisplayName("07 Background tasks: the schedule")
class ScheduleTest {

  static final Duration PERIOD = Duration.ofSeconds(1);
  /** Long enough that no deadline falls inside these tests: they are about the schedule alone. */
  static final Duration NO_DEADLINE_HERE = Duration.ofMinutes(10);

  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(SceneWarmUp::steps);
  }

  @Test
  @Order(1)
  @Points(2)
  @DisplayName("while runs are quick, the job runs once per period it is given, and each run publishes every rate "
      + "together")
  void runsOncePerPeriod(Vertx vertx) {
    // Two periods, and neither of them one second: a job that ignores the period it is given fails one of them.
    for (long millis : new long[] {700, 1_300}) {
      runsOnceEvery(vertx, Duration.ofMillis(millis));
    }
  }

  private static void runsOnceEvery(Vertx vertx, Duration period) {
    long p = period.toMillis();
    RatesScene scene = new RatesScene(vertx, List.of("USD", "GBP"), period, NO_DEADLINE_HERE);
    scene.advance(p);
    Gate<Double> usd = scene.call(1, "With a period of " + p + " ms, one period after start (t=" + p + " ms) the job "
        + "should have started its first run and asked the feed for USD, but it has not");
    scene.requireEveryTimerFromTheScheduler("While the first run was waiting for the feed");
    scene.answer(usd, 1.10);
    Gate<Double> gbp = scene.call(2, "Once the feed answered USD, the run should ask it for GBP");
    require(scene.rates().isEmpty(), "The run published " + scene.rates() + " before GBP had answered. Publish the "
        + "rates together, once every currency has answered, so that nobody reads half a refresh.");
    scene.answer(gbp, 0.85);
    require(scene.rates().equals(Map.of("USD", 1.10, "GBP", 0.85)), "After the first run, rates() should be "
        + "{USD=1.1, GBP=0.85}, but it is " + scene.rates() + ".");
    JobStatus status = scene.status();
    require(status.started() == 1 && status.succeeded() == 1 && status.failed() == 0, "After one run that went "
        + "well, status() should say 1 started, 1 succeeded, 0 failed, but it says " + status + ".");

    // The first run ended at this very millisecond (a tick of the period): the next one comes one period later.
    long ended = scene.clock.now();
    scene.advance(p - 1);
    require(scene.calls() == 2, "With a period of " + p + " ms, the first run ended at t=" + ended + " ms, and by t="
        + scene.clock.now() + " ms, less than one period later, the job had started another run already (calls so "
        + "far: " + scene.callsInWords() + "). A run every " + p + " ms means the period the job is given, not one "
        + "of its own.");
    scene.advance(1);
    scene.call(3, "With a period of " + p + " ms, the first run ended at t=" + ended + " ms, so at t="
        + (ended + p) + " ms the job should have started its second run, but it has not");
    scene.answerAll(2.0);
    require(scene.rates().equals(Map.of("USD", 2.0, "GBP", 2.0)), "After the second run, rates() should be the "
        + "second run's rates, {USD=2.0, GBP=2.0}, but it is " + scene.rates() + ".");
    status = scene.status();
    require(status.started() == 2 && status.succeeded() == 2, "After two runs that went well, status() should say "
        + "2 started and 2 succeeded, but it says " + status + ".");
  }

  @Test
  @Order(2)
  @Points(4)
  @DisplayName("a run slower than the period is never overlapped by the next one, even between two of its calls; "
      + "the job goes on once it ends")
  void aSlowRunIsNeverOverlapped(Vertx vertx) {
    RatesScene scene = new RatesScene(vertx, List.of("USD", "GBP"), PERIOD, NO_DEADLINE_HERE);
    scene.advance(PERIOD.toMillis());
    scene.answer(scene.call(1, "One period (" + PERIOD.toMillis() + " ms) after start, the job should have started "
        + "its first run and asked the feed for USD, but it has not"), 1.10);
    // The run is half done: USD answered at once, GBP keeps it waiting for three whole periods.
    Gate<Double> slow = scene.call(2, "Once the feed answered USD, the run should ask it for GBP");
    for (int period = 2; period <= 4; period++) {
      scene.advance(PERIOD.toMillis());
      require(scene.calls() == 2, "Overlapping runs: the first run was still waiting for the feed (USD answered, its "
          + "call for GBP made at t=" + PERIOD.toMillis() + " ms), and at t=" + scene.clock.now() + " ms the job "
          + "started another run beside it (calls so far: " + scene.callsInWords() + "). A periodic timer fires on "
          + "time whether the run it started has ended or not: two runs at once ask the upstream twice, and the "
          + "slower one can publish older rates over newer ones. Skip a tick while a run is in flight (a flag set "
          + "when a run starts, cleared however the whole run ends), or set a one-shot timer for the next run only "
          + "once the current one has ended.");
    }
    scene.answer(slow, 0.85);
    require(scene.rates().equals(Map.of("USD", 1.10, "GBP", 0.85)), "The slow run ended with USD=1.1 and GBP=0.85, "
        + "so rates() should be {USD=1.1, GBP=0.85}, but it is " + scene.rates() + ".");
    scene.advance(PERIOD.toMillis());
    scene.call(3, "The slow run ended at t=" + (4 * PERIOD.toMillis()) + " ms; by one period later the job should "
        + "have started its next run, but it has not: skipping ticks while a run is in flight must not stop the "
        + "schedule for good");
    require(scene.mostInFlight() == 1, "Overlapping runs: " + scene.mostInFlight() + " calls to the feed for the same "
        + "currency were waiting at the same time (" + scene.mostInFlightInWords() + "), one for each run in flight. "
        + "Never start a run while the one before is still in flight.");
    scene.answerAll(1.20);
    JobStatus status = scene.status();
    require(status.inFlight() == 0 && status.succeeded() == status.started() && status.started() >= 2, "Both runs "
        + "have ended well, so status() should count each run started as succeeded, with none in flight, but it "
        + "says " + status + ".");
  }
}
