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
  @DisplayName("a run whose feed fails is counted, its error kept in status(), nothing of it published, and the next "
      + "period runs again")
  void aFailedRunIsCountedAndTheScheduleGoesOn(Vertx vertx) {
    RatesScene scene = new RatesScene(vertx, List.of("USD", "GBP"), PERIOD, NO_DEADLINE_HERE);
    scene.advance(PERIOD.toMillis());
    scene.answerAll(1.10);
    Map<String, Double> good = scene.rates();
    require(good.equals(Map.of("USD", 1.10, "GBP", 1.10)), "After a first run that went well, rates() should be "
        + "{USD=1.1, GBP=1.1}, but it is " + good + ".");

    // Run 2: USD answers, GBP fails. Nothing of this run may be published.
    scene.advance(PERIOD.toMillis());
    scene.answer(scene.call(3, "One period after the first run, the job should start its second run, but it has not"),
        9.99);
    scene.fail(scene.call(4, "Once the feed answered USD, the second run should ask it for GBP"));
    JobStatus status = scene.status();
    require(status.failed() == 1 && status.lastFailure() != null && FeedDown.says(status.lastFailure(),
        FeedDown.OUTAGE), "The second run failed (the feed failed GBP with \"" + FeedDown.OUTAGE + "\"), so "
        + "status() should count 1 failed run and keep that error as lastFailure, but it says " + status + ". A "
        + "background job has no caller to hear its errors: count them and keep the last one where someone can see "
        + "it (a health check, a metric), or they are swallowed and nobody learns that the rates went stale.");
    require(scene.rates().equals(good), "The second run failed, so rates() should still be the first run's " + good
        + ", but it is " + scene.rates() + ": a failed run published part of its rates.");

    // Run 3 must come, and go well.
    scene.advance(PERIOD.toMillis());
    scene.call(5, "The second run failed at t=" + 2 * PERIOD.toMillis() + " ms, and one period later the job should "
        + "have started its third run, but it has not: one failing run stopped the schedule for good. Whatever a "
        + "run ends with, clear the way for the next one (in onComplete or andThen, never only in onSuccess)");
    scene.answerAll(1.30);
    status = scene.status();
    require(scene.rates().equals(Map.of("USD", 1.30, "GBP", 1.30)) && status.started() == 3
        && status.succeeded() == 2 && status.failed() == 1, "After runs that went well, failed, and went well, "
        + "rates() should be the third run's {USD=1.3, GBP=1.3} and status() should say 3 started, 2 succeeded, 1 "
        + "failed, but rates() is " + scene.rates() + " and status() says " + status + ".");
  }

  @Test
  @Order(2)
  @Points(2)
  @DisplayName("a feed that throws instead of failing its future is counted as a failed run too, and the next period "
      + "runs again")
  void aThrowingFeedIsCountedAndTheScheduleGoesOn(Vertx vertx) {
    RatesScene scene = new RatesScene(vertx, List.of("USD"), PERIOD, NO_DEADLINE_HERE);
    scene.answer(scene.nextRun("The job should start its first run"), 1.00);
    scene.throwOnNextCall("USD");
    scene.advance(PERIOD.toMillis());
    JobStatus status = scene.status();
    require(status.started() == 2 && status.failed() == 1 && FeedDown.says(status.lastFailure(), FeedDown.CLOSED),
        "The second run's call to the feed threw (\"" + FeedDown.CLOSED + "\")" + scene.thrownThrough.inWords()
        + " instead of returning a future, so status() should count 2 started runs and 1 failed, with that error as "
        + "lastFailure, but it says " + status + " (calls to the feed so far: " + scene.callsInWords() + "). Make the "
        + "call where a throw becomes a failed future (inside compose, or Future.future), so that it takes the same "
        + "path as any other failure.");
    long threwAt = scene.clock.now();
    scene.advance(PERIOD.toMillis());
    scene.call(2, "The second run's feed threw at t=" + threwAt + " ms, and one period later the job should have "
        + "started its third run, but it has not: the exception stopped the schedule. A run that ends by throwing "
        + "must clear the way for the next one like any other");
    scene.answerAll(1.40);
    status = scene.status();
    require(scene.rates().equals(Map.of("USD", 1.40)) && status.started() == 3 && status.succeeded() == 2
        && status.failed() == 1, "After a run that went well, a run whose feed threw and another that went well, "
        + "rates() should be {USD=1.4} and status() should say 3 started, 2 succeeded, 1 failed, but rates() is "
        + scene.rates() + " and status() says " + status + ".");
  }
}
