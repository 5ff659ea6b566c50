package io.looplab.background;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Points;
import io.looplab.grader.guard.GivenCode;
import io.looplab.grader.testkit.WarmUp;
import io.vertx.core.Vertx;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.looplab.background.ScheduleTest.NO_DEADLINE_HERE;
import static io.looplab.background.ScheduleTest.PERIOD;
import static io.looplab.grader.testkit.Checks.require;

/**
 * Grades what the job does with a failed run: it counts it, keeps its error for status(), publishes nothing of it,
 * and runs again at the next period. An exception that escapes to Vert.x fails these tests too (the guard sees it):
 * a failure must be reported, not thrown at the event loop.
 */
@GradedVertxTest
@GivenCode(value = Scheduler.class, is = "the scheduler the job is given")
@GivenCode(value = RatesFeed.class, is = "the rates feed")
@GivenCode(value = JobStatus.class, is = "the job's status record")
@Order(2)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@DisplayName("07 Background tasks: a failed run")
class FailuresTest {

  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(SceneWarmUp::steps);
  }

  @Test
  @Order(1)
  @Points(3)
  @DisplayName("runs whose feed fails, two in a row, are each counted, the last error kept in status(), nothing of "
      + "them published, and the next period runs again")
  void aFailedRunIsCountedAndTheScheduleGoesOn(Vertx vertx) {
    RatesScene scene = new RatesScene(vertx, List.of("USD", "GBP"), PERIOD, NO_DEADLINE_HERE);
    scene.advance(PERIOD.toMillis());
    scene.answerAll(1.10);
    Map<String, Double> good = scene.rates();
    require(good.equals(Map.of("USD", 1.10, "GBP", 1.10)), "After a first run that went well, rates() should be "
        + "{USD=1.1, GBP=1.1}, but it is " + good + ".");

    // Run 2: USD answers, GBP fails. Nothing of this run may be published, not even for a moment.
    scene.advance(PERIOD.toMillis());
    scene.answer(scene.call(3, "One period after the first run, the job should start its second run, but it has not"),
        9.99);
    require(scene.rates().equals(good), "The second run had USD=9.99 and was still waiting for GBP, and rates() was "
        + scene.rates() + " instead of the first run's " + good + ": it published part of a run before GBP had "
        + "answered. Publish a run's rates together, as a new map, once every currency has answered.");
    scene.fail(scene.call(4, "Once the feed answered USD, the second run should ask it for GBP"));
    JobStatus status = scene.status();
    require(status.failed() == 1 && status.lastFailure() != null && FeedDown.says(status.lastFailure(),
        FeedDown.OUTAGE), "The second run failed (the feed failed GBP with \"" + FeedDown.OUTAGE + "\"), so "
        + "status() should count 1 failed run and keep that error as lastFailure, but it says " + status + ". A "
        + "background job has no caller to hear its errors: count them and keep the last one where someone can see "
        + "it (a health check, a metric), or they are swallowed and nobody learns that the rates went stale.");
    require(scene.rates().equals(good), "The second run failed, so rates() should still be the first run's " + good
        + ", but it is " + scene.rates() + ": a failed run published part of its rates.");

    // Run 3 must come, and fail too, for another reason: lastFailure is the most recent error.
    scene.advance(PERIOD.toMillis());
    scene.fail(scene.call(5, "The second run failed at t=" + 2 * PERIOD.toMillis() + " ms, and one period later the "
        + "job should have started its third run, but it has not: one failing run stopped the schedule for good. "
        + "Whatever a run ends with, clear the way for the next one (in onComplete or andThen, never only in "
        + "onSuccess)"), FeedDown.OUTAGE_AGAIN);
    status = scene.status();
    require(status.started() == 3 && status.failed() == 2 && FeedDown.says(status.lastFailure(),
        FeedDown.OUTAGE_AGAIN), "The third run failed too, now with \"" + FeedDown.OUTAGE_AGAIN + "\" (USD), after "
        + "the second failed with \"" + FeedDown.OUTAGE + "\", so status() should count 3 started and 2 failed, "
        + "with the third run's error as lastFailure (the most recent one), but it says " + status + ".");
    require(scene.rates().equals(good), "Two runs failed since the first one, so rates() should still be the first "
        + "run's " + good + ", but it is " + scene.rates() + ".");

    // Run 4 must come, and go well; the last error stays on record.
    scene.advance(PERIOD.toMillis());
    scene.call(6, "The third run failed at t=" + 3 * PERIOD.toMillis() + " ms, and one period later the job should "
        + "have started its fourth run, but it has not: two failing runs in a row stopped the schedule");
    scene.answerAll(1.30);
    status = scene.status();
    require(scene.rates().equals(Map.of("USD", 1.30, "GBP", 1.30)) && status.started() == 4
        && status.succeeded() == 2 && status.failed() == 2, "After runs that went well, failed, failed, and went "
        + "well, rates() should be the fourth run's {USD=1.3, GBP=1.3} and status() should say 4 started, 2 "
        + "succeeded, 2 failed, but rates() is " + scene.rates() + " and status() says " + status + ".");
    require(FeedDown.says(status.lastFailure(), FeedDown.OUTAGE_AGAIN), "After a run that went well, status() says "
        + status + ": lastFailure is the error of the most recent failed run (\"" + FeedDown.OUTAGE_AGAIN + "\", "
        + "the third run's), and a run that goes well does not erase it: JobStatus keeps it null only while no run "
        + "has failed.");
  }

  @Test
  @Order(2)
  @Points(2)
  @DisplayName("a feed that throws instead of failing its future, on any currency of any run, is counted as a failed "
      + "run too, and the next period runs again")
  void aThrowingFeedIsCountedAndTheScheduleGoesOn(Vertx vertx) {
    RatesScene scene = new RatesScene(vertx, List.of("USD", "GBP"), PERIOD, NO_DEADLINE_HERE);
    scene.nextRun("The job should start its first run");
    scene.answerAll(1.00);
    Map<String, Double> good = scene.rates();

    // Run 2: USD answers, then the call for GBP throws.
    scene.throwOnNextCall("GBP");
    scene.advance(PERIOD.toMillis());
    scene.answer(scene.call(3, "One period after the first run, the job should start its second run, but it has "
        + "not"), 1.50);
    JobStatus status = scene.status();
    require(status.started() == 2 && status.failed() == 1 && FeedDown.says(status.lastFailure(), FeedDown.CLOSED),
        "In the second run the feed answered USD, then the call for GBP threw (\"" + FeedDown.CLOSED + "\")"
        + scene.thrownThrough.inWords() + " instead of returning a future, so status() should count 2 started runs "
        + "and 1 failed, with that error as lastFailure, but it says " + status + " (calls to the feed so far: "
        + scene.callsInWords() + "). Make each call where a throw becomes a failed future (inside compose, or "
        + "Future.future), so that it takes the same path as any other failure, on every step of the run.");
    require(scene.rates().equals(good), "The second run failed, so rates() should still be the first run's " + good
        + ", but it is " + scene.rates() + ".");

    // Run 3: the very first call throws.
    scene.throwOnNextCall("USD");
    long threwAt = scene.clock.now() + PERIOD.toMillis();
    scene.advance(PERIOD.toMillis());
    status = scene.status();
    require(status.started() == 3 && status.failed() == 2 && FeedDown.says(status.lastFailure(), FeedDown.CLOSED),
        "The third run's first call to the feed (USD) threw (\"" + FeedDown.CLOSED + "\")"
        + scene.thrownThrough.inWords() + ", so status() should count 3 started runs and 2 failed, with that error "
        + "as lastFailure, but it says " + status + " (calls to the feed so far: " + scene.callsInWords() + ").");
    scene.advance(PERIOD.toMillis());
    scene.call(4, "The third run's feed threw at t=" + threwAt + " ms, and one period later the job should have "
        + "started its fourth run, but it has not: the exception stopped the schedule. A run that ends by throwing "
        + "must clear the way for the next one like any other");
    scene.answerAll(1.40);
    status = scene.status();
    require(scene.rates().equals(Map.of("USD", 1.40, "GBP", 1.40)) && status.started() == 4
        && status.succeeded() == 2 && status.failed() == 2, "After a run that went well, two runs whose feed threw "
        + "(on GBP, then on USD) and another that went well, rates() should be {USD=1.4, GBP=1.4} and status() "
        + "should say 4 started, 2 succeeded, 2 failed, but rates() is " + scene.rates() + " and status() says "
        + status + ".");
  }
}
