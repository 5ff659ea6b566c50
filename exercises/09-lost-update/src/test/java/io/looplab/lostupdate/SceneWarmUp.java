package io.looplab.lostupdate;

import io.looplab.grader.leaks.LockCensus;
import io.looplab.grader.races.Fresh;
import io.looplab.grader.sync.CallSite;
import io.looplab.grader.sync.Gate;
import io.looplab.grader.sync.GatedDependency;
import io.looplab.grader.testkit.Await;
import io.looplab.grader.testkit.OnContext;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VerticleBase;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * The steps that warm the JVM up, with the test's own code only: the paths a reservation takes, a local lock, a chain of
 * futures, a gated call that records its call site, an answer delivered in one go, the lock census; and those of the
 * box office: a deployment that registers an event-bus consumer, a reply, a failed request, an undeploy. In a cold
 * JVM on a busy machine the first run of those paths loads and interprets enough classes to look like a stall of the
 * learner's code; after this, the learner's first reservation costs what it really costs. Every test class of the
 * exercise runs them before its tests, with {@code WarmUp.jvm}.
 */
final class SceneWarmUp {

  private SceneWarmUp() {
  }

  /** The steps, for {@code WarmUp.jvm(SceneWarmUp::steps)} in each test class's {@code @BeforeAll}. */
  static void steps(Vertx vertx) {
    GatedDependency<String, Boolean> gated = new GatedDependency<>();
    OnContext.run(vertx.getOrCreateContext(), () -> {
      for (String who : List.of("warm-1", "warm-2")) {
        Future.succeededFuture(who)
            .compose(w -> vertx.sharedData().withLocalLock("looplab.warm-up", () -> gated.apply(w).map(ok -> ok)))
            .transform(done -> Future.succeededFuture(done.succeeded()))
            .andThen(done -> LockCensus.heldLocalLocks(vertx));
      }
      vertx.sharedData().getLocalLockWithTimeout("looplab.warm-up-2", 1_000)
          .compose(lock -> Future.failedFuture(new AvailabilityServiceDown("warm-up"))
              .andThen(done -> lock.release()))
          .otherwise(false);
    }, ShowScene.WAIT);
    long within = ShowScene.WAIT.toMillis();
    Gate.releaseTogether(gated.awaitCalls(1, within).get(0).opening(true).andThen(CallSite::ofCurrentCall));
    gated.awaitCalls(2, within).get(1).fail(new AvailabilityServiceDown("warm-up"));
    LockCensus.heldLocalLocks(vertx);
    // The box office's paths: a deployment whose start registers an event-bus consumer, a JSON reply, a failure.
    String id = Await.result(vertx.deployVerticle(new VerticleBase() {
      @Override
      public Future<?> start() {
        return vertx.eventBus().<String>consumer("looplab.warm-up", request -> Future.succeededFuture(request.body())
            .onSuccess(who -> request.reply(new JsonObject().put("who", who)))).completion();
      }
    }), ShowScene.WAIT, "The warm-up verticle did not deploy.");
    Await.outcome(vertx.eventBus().request("looplab.warm-up", Fresh.copyOf("warm-up")), ShowScene.WAIT,
        "The warm-up request got no answer.");
    Await.outcome(vertx.eventBus().request("looplab.nobody", "warm-up"), ShowScene.WAIT,
        "The warm-up request got no failure.");
    Await.outcome(vertx.undeploy(id), ShowScene.WAIT, "The warm-up verticle did not undeploy.");
  }
}
