package io.looplab.background;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Points;
import io.looplab.grader.guard.GivenCode;
import io.looplab.grader.sync.Gate;
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
import java.util.concurrent.TimeoutException;

import static io.looplab.background.ScheduleTest.PERIOD;
import static io.looplab.grader.testkit.Checks.require;

/**
 * Grades the deadline, a timeout done as cancellation: at the deadline the caller hears a TimeoutException (not a
 * moment before), and the abandoned run stops: it asks the feed nothing more and publishes nothing, whenever the late
 * answer comes. The clock is the test's: "at the deadline" means at that tick of it, exactly.
 */
@GradedVertxTest
@GivenCode(value = Scheduler.class, is = "the scheduler the job is given")
@GivenCode(value = RatesFeed.class, is = "the rates feed")
@GivenCode(value = JobStatus.class, is = "the job's status record")
@Order(3)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@DisplayName("07 Background tasks: the deadline")
class DeadlineTest {

  static final Duration DEADLINE = Duration.ofMillis(500);
  /** So long that no tick comes while these tests call refresh() themselves. */
  static final Duration NO_TICK_HERE = Duration.ofHours(1);

  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(SceneWarmUp::steps);
  }

  @Test
  @Order(1)
  @Points(3)
  @DisplayName("refresh() fails with a TimeoutException at its deadline, not before, when the feed does not answer")
  void theCallerHearsTheDeadline(Vertx vertx) {
    RatesScene scene = new RatesScene(vertx, List.of("USD", "GBP"), NO_TICK_HERE, DEADLINE);
    Future<Map<String, Double>> run = scene.refresh();
    scene.requireEveryTimerFromTheScheduler("Once refresh() had started");
    Gate<Double> usd = scene.call(1, "refresh() should ask the feed for USD at once, but it has not");
    // USD answers well within the deadline; GBP never does. The deadline is the whole run's, from its start.
    long usdAt = DEADLINE.toMillis() * 3 / 5;
    scene.advance(usdAt);
    scene.answer(usd, 1.10);
    scene.call(2, "Once the feed answered USD, refresh() should ask it for GBP");
    scene.advance(DEADLINE.toMillis() - 1 - usdAt);
    require(!run.isComplete(), "refresh() answered " + describe(run) + " at t=" + scene.clock.now() + " ms, before "
        + "its deadline of " + DEADLINE.toMillis() + " ms had passed, while the feed was still working on GBP.");
    scene.advance(1);
    require(run.isComplete(), "refresh() was still waiting at t=" + scene.clock.now() + " ms, its deadline of "
        + DEADLINE.toMillis() + " ms from its start, with USD answered at t=" + usdAt + " ms and GBP silent since: "
        + "its caller should hear a TimeoutException then" + scene.timersInWords() + ". The deadline is the whole "
        + "run's: one timer on the Scheduler, set when the run starts (not again at each call to the feed), that "
        + "fails the run's promise when it fires.");
    require(run.failed() && isTimeout(run.cause()), "At its deadline refresh() should fail with a "
        + "java.util.concurrent.TimeoutException, but it answered " + describe(run) + ".");
  }

  @Test
  @Order(2)
  @Points(3)
  @DisplayName("a run abandoned at its deadline stops: a late answer neither starts its next step nor publishes")
  void theAbandonedRunStops(Vertx vertx) {
    RatesScene scene = new RatesScene(vertx, List.of("USD", "GBP"), NO_TICK_HERE, DEADLINE);
    Future<Map<String, Double>> run = scene.refresh();
    Gate<Double> usd = scene.call(1, "refresh() should ask the feed for USD at once, but it has not");
    scene.advance(DEADLINE.toMillis());
    require(run.failed() && isTimeout(run.cause()), "At its deadline refresh() should fail with a "
        + "java.util.concurrent.TimeoutException, but it answered " + describe(run) + scene.timersInWords() + ".");
    int callsAtDeadline = scene.calls();
    scene.answer(usd, 1.10);
    require(scene.calls() == callsAtDeadline, "The run was abandoned at its deadline, and yet when the feed's late "
        + "answer for USD came, the run went on and called the feed again (calls so far: " + scene.callsInWords()
        + "). A timeout that only fails the "
        + "caller leaves the work running, unseen, and using the upstream: cancel it too. Before each step, check "
        + "whether the run is still wanted (has its deadline passed?), and stop when it is not.");
    scene.answerAll(1.10);
    require(scene.rates().isEmpty(), "The run was abandoned at its deadline, and yet it published " + scene.rates()
        + " when the late answers came. An abandoned run must publish nothing: its caller has already been told it "
        + "failed.");
    require(run.failed() && isTimeout(run.cause()), "refresh() failed at its deadline, but now says "
        + describe(run) + ": a caller hears one answer, the first.");

    // Another run, abandoned the same way, whose late answer is a failure this time.
    int callsBefore = scene.calls();
    Future<Map<String, Double>> again = scene.refresh();
    Gate<Double> usdAgain = scene.call(callsBefore + 1, "A second refresh() should ask the feed for USD at once, "
        + "but it has not");
    scene.advance(DEADLINE.toMillis());
    int callsAtSecondDeadline = scene.calls();
    scene.fail(usdAgain);
    require(scene.calls() == callsAtSecondDeadline && scene.rates().isEmpty() && again.failed()
        && isTimeout(again.cause()), "A second refresh() was abandoned at its deadline, then the feed's late answer "
        + "for USD came, a failure (\"" + FeedDown.OUTAGE + "\"); after it the run answered " + describe(again)
        + ", rates() is " + scene.rates() + " and the calls so far are " + scene.callsInWords() + ". An abandoned "
        + "run stops whatever its late answer: no further call, nothing published, and its caller's answer stays the "
        + "TimeoutException.");
  }

  @Test
  @Order(3)
  @Points(2)
  @DisplayName("a periodic run past its deadline is counted as failed, and the next period runs again")
  void aPeriodicRunPastItsDeadlineIsCounted(Vertx vertx) {
    Duration deadline = Duration.ofMillis(2_500);
    RatesScene scene = new RatesScene(vertx, List.of("USD"), PERIOD, deadline);
    scene.advance(PERIOD.toMillis());
    Gate<Double> first = scene.call(1, "One period (" + PERIOD.toMillis() + " ms) after start, the job should have "
        + "started its first run and asked the feed for USD, but it has not");
    scene.advance(deadline.toMillis());
    JobStatus status = scene.status();
    require(status.failed() == 1 && isTimeout(status.lastFailure()), "The first run (started at t="
        + PERIOD.toMillis() + " ms) passed its deadline of " + deadline.toMillis() + " ms at t="
        + (PERIOD.toMillis() + deadline.toMillis()) + " ms, so status() should count it as failed with a "
        + "TimeoutException, but it says " + status + scene.timersInWords() + ".");
    long firstDeadline = scene.clock.now();
    scene.advance(PERIOD.toMillis());
    Gate<Double> second = scene.call(2, "The first run was abandoned at its deadline (by t=" + firstDeadline + " ms), so "
        + "by one period later (t=" + scene.clock.now() + " ms) a new run should have started, but none did: the "
        + "abandoned run still blocks the way");
    scene.answer(first, 1.10);
    require(scene.rates().isEmpty(), "The abandoned first run published " + scene.rates() + " when its late answer "
        + "came. Only a run that ends in time may publish.");

    // The second run passes its deadline too, and its late answer is a failure this time.
    scene.advance(deadline.toMillis());
    long secondDeadline = scene.clock.now();
    scene.advance(PERIOD.toMillis());
    Gate<Double> third = scene.call(3, "The second run was abandoned at its deadline (by t=" + secondDeadline + " ms), so "
        + "by one period later (t=" + scene.clock.now() + " ms) a third run should have started, but none did");
    scene.fail(second);
    status = scene.status();
    require(status.started() == 3 && status.failed() == 2 && isTimeout(status.lastFailure()), "Two runs passed "
        + "their deadlines, and a third is in flight, so status() should say 3 started, 2 failed, with the second "
        + "run's TimeoutException as lastFailure; then the second run's late answer came, a failure (\""
        + FeedDown.OUTAGE + "\"), and status() says " + status + ". An abandoned run has already been counted, "
        + "once, at its deadline: its late answer, a success or a failure, changes nothing.");
    scene.answer(third, 1.20);
    require(scene.rates().equals(Map.of("USD", 1.20)), "The third run ended in time with USD=1.2, so rates() "
        + "should be {USD=1.2}, but it is " + scene.rates() + ".");
    status = scene.status();
    require(status.started() == 3 && status.succeeded() == 1 && status.failed() == 2, "Runs past their deadline, "
        + "twice, and then one in time should leave status() at 3 started, 1 succeeded, 2 failed, but it says "
        + status + ".");
  }

  /** A TimeoutException, or an error caused by one. */
  static boolean isTimeout(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof TimeoutException) {
        return true;
      }
    }
    return false;
  }

  private static String describe(Future<?> run) {
    return !run.isComplete() ? "nothing yet" : run.succeeded() ? String.valueOf(run.result())
        : "a failure (" + run.cause() + ")";
  }
}
