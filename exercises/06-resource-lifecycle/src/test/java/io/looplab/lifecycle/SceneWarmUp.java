package io.looplab.lifecycle;

import io.looplab.grader.sync.GatedDependency;
import io.looplab.grader.testkit.Await;
import io.looplab.grader.testkit.OnContext;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;

import java.time.Duration;

/**
 * The steps that warm the JVM up, with the test's own code only: a loan from the test's pool, a gated query,
 * eventually, a promise settled by the first of several racers, a timer set and cancelled, a deployment and its
 * undeploy. In a cold JVM on a busy machine the first run of those paths loads enough classes to look like a stall
 * of the learner's code. Every test class of the exercise runs them before its tests, with {@code WarmUp.jvm}.
 */
final class SceneWarmUp {

  private static final Duration WAIT = ReportScene.WAIT;

  private SceneWarmUp() {
  }

  /** The steps, for {@code WarmUp.jvm(SceneWarmUp::steps)} in each test class's {@code @BeforeAll}. */
  static void steps(Vertx vertx) {
    CountingPool pool = new CountingPool(1);
    GatedDependency<String, String> database = pool.database;
    String id = Await.result(vertx.deployVerticle(new VerticleBase() {
    }), WAIT, "The warm-up verticle did not deploy.");
    OnContext.run(vertx.getOrCreateContext(), () -> {
      Promise<String> answer = Promise.promise();
      long timer = vertx.setTimer(60_000, t -> answer.tryFail(new DatabaseTrouble("warm-up")));
      pool.acquire().compose(connection -> {
        connection.query("warm-up").onComplete(answer::tryComplete, answer::tryFail);
        return answer.future().andThen(done -> vertx.cancelTimer(timer)).eventually(connection::close);
      }).recover(e -> Future.succeededFuture("warm-up"));
      pool.acquire().otherwise(e -> null);
    }, WAIT);
    database.awaitCalls(1, WAIT.toMillis()).get(0).open("warm-up");
    pool.awaitAllBack(WAIT.toMillis());
    Await.outcome(vertx.undeploy(id), WAIT, "The warm-up verticle did not undeploy.");
  }
}
