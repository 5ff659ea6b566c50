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
import java.util.List;

/**
 * The steps that warm the JVM up, with the test's own code only: a virtual-thread deployment, gated calls awaited on
 * its virtual threads (one answered, one failed), Future.all, a local lock taken, waited for and handed on (from the
 * test's thread, with callbacks), the context's settling, the lock census, and an event-bus request to a
 * virtual-thread verticle. In a cold JVM the first run of those paths loads and interprets enough classes to look like
 * the learner's doing; after this, the learner's first reservation costs what it really costs. None of it is a
 * reservation, and none of it shows how to make one: the tasks below share nothing and hold no lock. Every test class
 * of the exercise runs them before its tests, with {@code WarmUp.jvm}.
 */
final class SceneWarmUp {

  private SceneWarmUp() {
  }

  static void steps(Vertx vertx) {
    Duration settle = Duration.ofSeconds(5);
    long within = settle.toMillis();
    Stage stage = Stage.in(vertx);
    GatedDependency<String, Boolean> gated = new GatedDependency<>();
    for (String who : new String[] {"warm-1", "warm-2"}) {
      stage.context().runOnContext(v -> {
        Future<Boolean> call = gated.apply(Fresh.copyOf(who));
        Future.all(call, Future.succeededFuture(true)).onComplete(all -> { });
        try {
          call.await();
        } catch (RuntimeException failed) {
          // warm-2's call is failed on purpose: the path of a failure thrown out of await()
        }
      });
    }
    ContextSettle.settle(stage.context(), settle);
    List<Gate<Boolean>> calls = gated.awaitCalls(2, within);
    Gate.releaseTogether(calls.get(0).opening(true).andThen(CallSite::ofCurrentCall));
    ContextSettle.settle(stage.context(), settle);
    calls.get(1).fail(new AvailabilityServiceDown("warm-up"));
    ContextSettle.settle(stage.context(), settle);
    ContextSettle.holder(stage.context());

    // A local lock, taken, waited for by a second taker, and handed on when released: from this thread, no await.
    Lock first = Await.result(vertx.sharedData().getLocalLock("looplab.warm-up"), settle, "The warm-up lock was not "
        + "given.");
    Future<Lock> second = vertx.sharedData().getLocalLock("looplab.warm-up");
    LockCensus.heldLocalLocks(vertx);
    first.release();
    Await.result(second, settle, "The warm-up lock was not handed on.").release();

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
