package io.looplab.grader.races.timers;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Timer;
import io.vertx.core.Vertx;

import java.util.concurrent.TimeUnit;

/** The "code under test" of the timer census's tests: each method sets a timer one way Vert.x offers. */
public final class TimerSetter {

  private TimerSetter() {
  }

  /** A deadline on a future that may never complete: Netty's queue only, not Vert.x's timer map. */
  public static Future<String> deadlineOn(Promise<String> answer) {
    return answer.future().timeout(60, TimeUnit.SECONDS);
  }

  public static Timer timer(Vertx vertx) {
    return vertx.timer(60, TimeUnit.SECONDS);
  }

  public static long periodic(Vertx vertx) {
    return vertx.setPeriodic(60_000, id -> { });
  }

  public static long oneShot(Vertx vertx) {
    return vertx.setTimer(60_000, id -> { });
  }

  /** A request to a consumer that never replies: Vert.x sets the reply timer for itself, not for the code. */
  public static Future<Object> requestNobodyAnswers(Vertx vertx, String address) {
    return vertx.eventBus().request(address, "ping",
        new io.vertx.core.eventbus.DeliveryOptions().setSendTimeout(60_000)).map(reply -> reply.body());
  }
}
