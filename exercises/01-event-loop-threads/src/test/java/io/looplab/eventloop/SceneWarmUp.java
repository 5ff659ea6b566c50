package io.looplab.eventloop;

import io.looplab.grader.sync.CallSite;
import io.looplab.grader.testkit.Await;
import io.looplab.grader.testkit.DeployedService;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;


/**
 * The steps that warm the JVM up, with the test's own code only: a verticle of the test's that takes the dashboard's
 * path (an HTTP server, a request, two gated lookups answered on the directory's client thread and brought back with
 * {@code Future.fromCompletionStage(stage, context)}, {@code Future.all}, a JSON answer and a 502), the scene's
 * evidence, and an undeploy. In a cold JVM on a busy machine the first run of those paths loads enough classes to look
 * like a stall of the learner's code; after this, the learner's first request costs what it really costs.
 */
final class SceneWarmUp {

  private SceneWarmUp() {
  }

  /** The steps, for {@code WarmUp.jvm(SceneWarmUp::steps)} in each test class's {@code @BeforeAll}. */
  static void steps(Vertx vertx) {
    GatedDirectory directory = new GatedDirectory();
    VisitLog visits = new VisitLog();
    WarmVerticle verticle = new WarmVerticle(directory, visits);
    DeployedService service = DeployedService.deploy(vertx, verticle, WarmVerticle::port, DashboardScene.WAIT);
    try {
      var ok = service.get("/dashboard?user=ada");
      var failed = service.get("/dashboard?user=bob");
      for (int round = 0; round < 100 && !(ok.isComplete() && failed.isComplete()); round++) {
        directory.pending().forEach(lookup -> {
          if (lookup.user().equals("bob")) {
            lookup.fail();
          } else {
            lookup.answer();
          }
        });
        directory.profiles.arrivesWithin(directory.profiles.calls() + 1, 10);
      }
      Await.outcome(ok, DashboardScene.WAIT, "The warm-up request got no answer.");
      Await.outcome(failed, DashboardScene.WAIT, "The warm-up request got no answer.");
      visits.accesses().forEach(access -> CallSite.of(access.stack()));
      Await.outcome(vertx.undeploy(service.deploymentId()), DashboardScene.WAIT, "The warm-up did not undeploy.");
    } finally {
      directory.close();
    }
  }

  /** The dashboard's path, written by the test. */
  private static final class WarmVerticle extends VerticleBase {
    private final GatedDirectory directory;
    private final VisitLog visits;
    private volatile int port;

    WarmVerticle(GatedDirectory directory, VisitLog visits) {
      this.directory = directory;
      this.visits = visits;
    }

    int port() {
      return port;
    }

    @Override
    public Future<?> start() {
      return vertx.createHttpServer().requestHandler(request -> {
        String user = request.getParam("user", "");
        visits.opened(user);
        var profile = Future.fromCompletionStage(directory.profile(user), context);
        var orders = Future.fromCompletionStage(directory.orders(user), context);
        Future.all(profile, orders).map(both -> new JsonObject().put("profile", profile.result())
            .put("orders", orders.result())).onComplete(answer -> {
              if (answer.succeeded()) {
                visits.answered(user);
                request.response().putHeader("content-type", "application/json").end(answer.result().encode());
              } else {
                visits.failed(user);
                request.response().setStatusCode(502).end(String.valueOf(answer.cause().getMessage()));
              }
            });
      }).listen(0, "127.0.0.1").onSuccess(server -> port = server.actualPort());
    }
  }

}
