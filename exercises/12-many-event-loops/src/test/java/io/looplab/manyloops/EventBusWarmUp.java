package io.looplab.manyloops;

import io.looplab.grader.testkit.Await;
import io.looplab.grader.testkit.WarmUp;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.shareddata.LocalMap;

import java.util.ArrayList;
import java.util.List;

import static io.looplab.manyloops.Limits.INSTANCES;
import static io.looplab.manyloops.Limits.PAGES;
import static io.looplab.manyloops.Limits.RACE_WAIT;
import static io.looplab.manyloops.Limits.WARM_UP_BATCHES;
import static io.looplab.manyloops.Limits.WARM_UP_BATCH_SIZE;

/**
 * The warm-up steps of this exercise, for {@link WarmUp#jvm}: the event-bus path it uses, with a verticle of the
 * test's own, before any graded test. In a cold JVM the first requests, replies and shared-data calls spend tens of
 * milliseconds loading and interpreting code, which the stall detector could blame on the learner's handler.
 */
final class EventBusWarmUp {

  private EventBusWarmUp() {
  }

  /** Four instances of {@link CountingVerticle}, and a few hundred batches of views for them. */
  static void steps(Vertx vertx) {
    Await.result(vertx.deployVerticle(CountingVerticle::new, new DeploymentOptions().setInstances(INSTANCES)),
        RACE_WAIT, "The warm-up verticle did not deploy.");
    JsonArray batch = new JsonArray();
    for (int i = 0; i < WARM_UP_BATCH_SIZE; i++) {
      batch.add("/warm-up/page-" + i % PAGES);
    }
    List<Future<Message<Object>>> replies = new ArrayList<>();
    for (int i = 0; i < WARM_UP_BATCHES; i++) {
      replies.add(vertx.eventBus().request(CountingVerticle.ADDRESS, batch));
    }
    Await.result(Future.all(replies), RACE_WAIT, "The warm-up requests got no answer.");
  }

  /** The same kind of work as the exercise, done right. */
  static final class CountingVerticle extends VerticleBase {
    static final String ADDRESS = "looplab.warm-up";

    @Override
    public Future<?> start() {
      LocalMap<String, Long> counts = vertx.sharedData().getLocalMap(ADDRESS);
      return vertx.sharedData().getLocalCounter(ADDRESS).compose(counter -> vertx.eventBus()
          .<JsonArray>consumer(ADDRESS, batch -> {
            List<Future<Long>> counted = new ArrayList<>();
            for (int i = 0; i < batch.body().size(); i++) {
              counts.merge(batch.body().getString(i), 1L, Long::sum);
              counted.add(counter.incrementAndGet());
            }
            Future.all(counted).onSuccess(done -> {
              JsonObject reply = new JsonObject();
              counts.forEach(reply::put);
              batch.reply(reply);
            });
          }).completion());
    }
  }
}
