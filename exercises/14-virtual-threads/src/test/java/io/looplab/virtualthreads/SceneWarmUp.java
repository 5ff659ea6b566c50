package io.looplab.virtualthreads;

import io.looplab.grader.leaks.LockCensus;
import io.looplab.grader.races.Fresh;
import io.looplab.grader.sync.CallSite;
import io.looplab.grader.sync.ContextSettle;
import io.looplab.grader.sync.Gate;
import io.looplab.grader.sync.GatedDependency;
import io.looplab.grader.testkit.Await;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.core.shareddata.Lock;

import java.time.Duration;

/**
 * The steps that warm the JVM up, with the test's own code only: a virtual-thread deployment, a local lock awaited
 * and released, a gated call awaited on a virtual thread, Future.all, the context's settling, the lock census, and an
 * event-bus request to a virtual-thread verticle. In a cold JVM the first run of those paths loads and interprets
 * enough classes to look like the learner's doing; after this, the learner's first reservation costs what it really
 * costs. Every test class of the exercise runs them before its tests, with {@code WarmUp.jvm}.
 */
final class SceneWarmUp {

  private SceneWarmUp() {
  }

  static void steps(Vertx vertx) {
    Stage stage = Stage.in(vertx);
    GatedDependency<String, Boolean> gated = new GatedDependency<>();
    for (String who : new String[] {"warm-1", "warm-2"}) {
      stage.context().runOnContext(v -> {
        Lock lock = vertx.sharedData().getLocalLock("looplab.warm-up").await();
        try {
          Future<Boolean> first = gated.apply(Fresh.copyOf(who));
          Future.all(first, Future.succeededFuture(true)).await();
          first.await();
        } finally {
          lock.release();
        }
      });
    }
    Duration settle = Duration.ofSeconds(5);
    ContextSettle.settle(stage.context(), settle);
    long within = settle.toMillis();
    Gate.releaseTogether(gated.awaitCalls(1, within).get(0).opening(true).andThen(CallSite::ofCurrentCall));
    ContextSettle.settle(stage.context(), settle);
    gated.awaitCalls(2, within).get(1).fail(new AvailabilityServiceDown("warm-up"));
    ContextSettle.settle(stage.context(), settle);
    ContextSettle.holder(stage.context());
    LockCensus.heldLocalLocks(vertx);
    String id = Await.result(vertx.deployVerticle(new VerticleBase() {
      @Override
      public Future<?> start() {
        return vertx.eventBus().<String>consumer("looplab.warm-up", request -> request.reply(new JsonObject()
            .put("who", Future.succeededFuture(request.body()).await()))).completion();
      }
    }, Stage.virtualThreads()), settle, "The warm-up verticle did not deploy.");
    Await.outcome(vertx.eventBus().request("looplab.warm-up", Fresh.copyOf("warm-up")), settle,
        "The warm-up request got no answer.");
    Await.outcome(vertx.eventBus().request("looplab.nobody", "warm-up"), settle, "The warm-up request got no failure.");
    Await.outcome(vertx.undeploy(id), settle, "The warm-up verticle did not undeploy.");
  }
}
