package io.looplab.promises;

import io.looplab.grader.testkit.Await;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The paths the graded tests take, run once with the test's own code before the first of them: a deployment, a
 * promise completed from another thread after a hop onto the loop, a timer set and cancelled, the compositions
 * (compose, recover, eventually, all, any, join), an undeploy. In a cold JVM the first run of each loads enough classes
 * to look like a stall of the learner's code.
 */
final class SceneWarmUp {

  private SceneWarmUp() {
  }

  static void steps(Vertx vertx) throws Exception {
    Duration within = QuoteScene.WAIT;
    CompletableFuture<Context> started = new CompletableFuture<>();
    String id = Await.result(vertx.deployVerticle(new VerticleBase() {
      @Override
      public Future<?> start() {
        started.complete(context);
        return Future.succeededFuture();
      }
    }), within, "The warm-up verticle did not deploy.");
    Context context = started.get(within.toMillis(), TimeUnit.MILLISECONDS);
    CompletableFuture<Object> done = new CompletableFuture<>();
    context.runOnContext(v -> {
      Promise<String> a = Promise.promise();
      Promise<String> b = Promise.promise();
      long timer = vertx.setTimer(60_000, t -> a.tryFail("late"));
      Thread thread = new Thread(() -> context.runOnContext(x -> {
        a.tryComplete("a");
        b.tryFail(new FeedDown("warm-up"));
      }), "looplab-warm-up");
      Future<String> first = a.future().eventually(() -> {
        vertx.cancelTimer(timer);
        return Future.succeededFuture();
      });
      Future.all(List.of(first, b.future())).otherwise(e -> null)
          .compose(x -> Future.any(List.of(first, b.future())))
          .compose(x -> Future.join(List.of(first, b.future())))
          .recover(e -> Future.succeededFuture())
          .transform(x -> first.map(s -> s + "!").otherwise("?"))
          .onComplete(x -> done.complete(x.result()));
      thread.start();
    });
    done.get(within.toMillis(), TimeUnit.MILLISECONDS);
    Await.outcome(vertx.undeploy(id), within, "The warm-up verticle did not undeploy.");
  }
}
