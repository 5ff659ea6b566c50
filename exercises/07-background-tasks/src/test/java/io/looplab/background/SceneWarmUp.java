package io.looplab.background;

import io.looplab.grader.races.PendingTimers;
import io.looplab.grader.sync.GatedDependency;
import io.looplab.grader.sync.ManualClock;
import io.looplab.grader.testkit.Await;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;

import java.time.Duration;

/**
 * The steps that warm the JVM up, with the test's own code only: a verticle whose start sets a periodic timer on a
 * hand-moved clock, ticks that start a chain of gated calls with a deadline timer, an answer, a failure, a throw turned
 * into a failed future, and an undeploy that awaits a promise. In a cold JVM the first run of those paths loads enough
 * classes to look like a stall of the learner's code; after this, the learner's first run costs what it really costs.
 */
final class SceneWarmUp {

  private SceneWarmUp() {
  }

  /** The steps, for {@code WarmUp.jvm(SceneWarmUp::steps)} in each test class's {@code @BeforeAll}. */
  static void steps(Vertx vertx) {
    ManualClock clock = new ManualClock();
    GatedDependency<String, Double> feed = new GatedDependency<>();
    String id = Await.result(vertx.deployVerticle(new VerticleBase() {
      private long periodic;

      @Override
      public Future<?> start() {
        periodic = clock.setPeriodic(1_000, tick -> {
          Promise<Double> outcome = Promise.promise();
          long deadline = clock.setTimer(500, t -> outcome.tryFail(new java.util.concurrent.TimeoutException()));
          Future.succeededFuture().compose(v -> feed.apply("warm-up")).compose(rate -> {
            throw new FeedDown("warm-up");
          }).onComplete(done -> outcome.tryComplete(1.0)).recover(Future::failedFuture);
          outcome.future().andThen(done -> clock.cancelTimer(deadline));
        });
        return Future.succeededFuture();
      }

      @Override
      public Future<?> stop() {
        clock.cancelTimer(periodic);
        Promise<Void> stopped = Promise.promise();
        vertx.runOnContext(v -> stopped.complete());
        return stopped.future();
      }
    }), RatesScene.WAIT, "The warm-up verticle did not deploy.");
    clock.advance(Duration.ofMillis(1_000));
    feed.awaitCalls(1, RatesScene.WAIT.toMillis()).get(0).open(1.0);
    clock.advance(Duration.ofMillis(1_000));
    feed.awaitCalls(2, RatesScene.WAIT.toMillis()).get(1).fail(new FeedDown("warm-up"));
    clock.advance(Duration.ofMillis(1_000));
    clock.advance(Duration.ofMillis(500));
    PendingTimers.of(vertx);
    Await.outcome(vertx.undeploy(id), RatesScene.WAIT, "The warm-up verticle did not undeploy.");
  }
}
