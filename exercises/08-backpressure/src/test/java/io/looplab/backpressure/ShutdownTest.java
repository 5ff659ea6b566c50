package io.looplab.backpressure;

import io.looplab.backpressure.IngestScene.Reply;
import io.looplab.downstream.Archive;
import io.looplab.downstream.ItemSink;
import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Points;
import io.looplab.grader.guard.GivenCode;
import io.looplab.grader.leaks.ShutdownCheck;
import io.looplab.grader.testkit.Await;
import io.looplab.grader.testkit.WarmUp;
import io.vertx.core.Vertx;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static io.looplab.grader.testkit.Checks.require;

/** Grades the undeploy: after items and a batch, IngestVerticle leaves no server, timer, pool or thread behind. */
@GradedVertxTest
@Order(4)
@Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
@GivenCode(value = ItemSink.class, is = "the slow store behind POST /items")
@GivenCode(value = Archive.class, is = "the slow archive behind PUT /batches/:name")
@DisplayName("08 Backpressure: the undeploy")
class ShutdownTest {

  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(SceneWarmUp::steps);
  }

  @Test
  @Order(7)
  @Points(2)
  @DisplayName("after items and a batch, undeploying the verticle leaves nothing behind")
  void undeployLeavesNothingBehind(Vertx vertx) {
    IngestScene scene = IngestScene.deploy(vertx, 2);
    scene.sink.completeFromNowOn();
    for (int i = 1; i <= 3; i++) {
      Reply reply = scene.postAndWait("item-" + i);
      require(reply.status() == 202 || reply.status() == 503, "POST /items should answer 202 or 503, but it "
          + "answered " + reply.describe() + ".");
    }
    BatchClient.Upload upload = scene.upload("last", 64 * 1024);
    scene.archive.awaitOpened(IngestScene.WAIT.toMillis()).ifPresent(SlowArchive.Disk::open);
    Await.outcome(upload.response(), IngestScene.WAIT, "PUT /batches/last got no answer within "
        + Await.inWords(IngestScene.WAIT) + ".");
    Await.outcome(scene.client.close(), IngestScene.WAIT, "The test's client did not close.");

    ShutdownCheck.assertCleanUndeploy(vertx, scene.service.deploymentId());
  }
}
