package io.looplab.virtualthreads;

import io.looplab.grader.testkit.Await;
import io.vertx.core.Context;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.ThreadingModel;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import org.opentest4j.AssertionFailedError;

import java.time.Duration;

/**
 * A verticle of the test's own, deployed on virtual threads, whose context runs the learner's SeatCounter and
 * TicketQuotes as the box office would: one task per request, each on a virtual thread of its own, one task at a time.
 * A stage lives in a Vert.x instance of its own, so that a context deadlocked by a broken solution (a JDK lock held
 * across an await) is left behind instead of hanging the next test.
 */
final class Stage extends VerticleBase {

  private static final Duration WAIT = Duration.ofSeconds(5);

  final Vertx vertx;
  private final boolean ownVertx;
  private volatile Context stageContext;

  private Stage(Vertx vertx, boolean ownVertx) {
    this.vertx = vertx;
    this.ownVertx = ownVertx;
  }

  /** A new Vert.x instance with a stage deployed on virtual threads. */
  static Stage open() {
    Stage stage = new Stage(Vertx.vertx(), true);
    stage.deploy();
    return stage;
  }

  /** A stage deployed on virtual threads in {@code vertx} (for the warm-up). */
  static Stage in(Vertx vertx) {
    Stage stage = new Stage(vertx, false);
    stage.deploy();
    return stage;
  }

  private void deploy() {
    try {
      Await.result(vertx.deployVerticle(this, virtualThreads()), WAIT, "The test's virtual-thread verticle did not "
          + "deploy within " + Await.inWords(WAIT) + ".");
    } catch (AssertionFailedError e) {
      throw new AssertionFailedError("This exercise needs a JDK 21 or newer, with virtual threads: the test could not "
          + "deploy a verticle with ThreadingModel.VIRTUAL_THREAD on " + System.getProperty("java.version") + " ("
          + e.getMessage() + ").", e);
    }
  }

  static DeploymentOptions virtualThreads() {
    return new DeploymentOptions().setThreadingModel(ThreadingModel.VIRTUAL_THREAD);
  }

  @Override
  public Future<?> start() {
    stageContext = context;
    return Future.succeededFuture();
  }

  Context context() {
    return stageContext;
  }

  /**
   * Closes the stage's own Vert.x instance, when its context has nothing running; a deadlocked context is left behind
   * (closing it would wait for a thread that never moves), with its threads parked for good.
   */
  void close(boolean deadlocked) {
    if (!ownVertx || deadlocked) {
      return;
    }
    try {
      ((VertxInternal) vertx).close().toCompletionStage().toCompletableFuture().get(WAIT.toMillis(),
          java.util.concurrent.TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      // a close that does not finish costs this stage alone; the test's verdict is already made
    }
  }
}
