package io.looplab.reserve;

import io.looplab.grader.leaks.LockCensus;
import io.looplab.grader.sync.CallSite;
import io.looplab.grader.testkit.Await;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VerticleBase;

import static io.looplab.reserve.Show.WAIT;

/**
 * The steps that warm the JVM up: the paths this exercise uses, run with a verticle of the test's own. The first
 * event-bus request, failed reply and local lock in a JVM load and interpret enough classes to look like a stall of
 * the learner's code. Every test class of the exercise runs them before its tests, with {@code WarmUp.jvm}.
 */
final class BoxOfficeWarmUp {

  private BoxOfficeWarmUp() {
  }

  /** The steps, for {@code WarmUp.jvm(BoxOfficeWarmUp::steps)} in each test class's {@code @BeforeAll}. */
  static void steps(Vertx vertx) {
    Await.result(vertx.deployVerticle(new WarmUpVerticle()), WAIT, "The warm-up verticle did not deploy.");
    Await.result(vertx.eventBus().request("looplab.warm-up", "ok"), WAIT, "The warm-up request got no answer.");
    // The failed reply is the point.
    Await.outcome(vertx.eventBus().request("looplab.warm-up", "fail"), WAIT, "The warm-up request got no answer.");
    // The fake payment service records where each charge was called from: walk a stack once before the tests do.
    CallSite.ofCurrentCall();
    LockCensus.heldLocalLocks(vertx);
  }

  /** The warm-up's own verticle: a consumer that takes a local lock and replies. */
  private static final class WarmUpVerticle extends VerticleBase {
    @Override
    public Future<?> start() {
      return vertx.eventBus().<String>consumer("looplab.warm-up", msg -> vertx.sharedData()
              .withLocalLock("looplab.warm-up", () -> Future.succeededFuture(msg.body()).map(String::length))
              .onSuccess(n -> {
                if ("fail".equals(msg.body())) {
                  msg.fail(409, "warm-up");
                } else {
                  msg.reply(n);
                }
              }))
          .completion();
    }
  }
}
