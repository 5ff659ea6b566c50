package io.looplab.backpressure;

import io.looplab.grader.testkit.Await;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.BodyHandler;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The steps that warm the JVM up, with the test's own code only: a service of its own with the exercise's two
 * routes (an item taken in or refused with 503, a batch piped into the slow archive), a burst of pipelined requests,
 * a streamed upload. In a cold JVM the first run of those paths loads and interprets enough classes to look like a
 * stall of the learner's code; after this, the learner's first request costs what it really costs.
 */
final class SceneWarmUp {

  private static final Duration WAIT = Duration.ofSeconds(20);

  private SceneWarmUp() {
  }

  static void steps(Vertx vertx) {
    HeldSink sink = new HeldSink();
    sink.completeFromNowOn();
    SlowArchive archive = new SlowArchive();
    WarmVerticle verticle = new WarmVerticle(sink, archive);
    String id = Await.result(vertx.deployVerticle(verticle), WAIT, "The warm-up service did not deploy.");
    HttpClient client = vertx.createHttpClient(new HttpClientOptions().setPipelining(true).setPipeliningLimit(4),
        new PoolOptions().setHttp1MaxSize(8).setMaxWaitQueueSize(-1));
    io.vertx.core.Context context = vertx.getOrCreateContext();
    List<Future<Integer>> answers = java.util.Collections.synchronizedList(new ArrayList<>());
    io.looplab.grader.testkit.OnContext.run(context, () -> {
      for (int i = 0; i < 64; i++) {
        answers.add(client.request(new RequestOptions().setMethod(HttpMethod.POST).setHost("127.0.0.1")
                .setPort(verticle.port).setURI("/items"))
            .compose(request -> request.send(Items.of("warm-up", IngestScene.ITEM_BYTES)))
            .compose(response -> response.body().map(body -> response.statusCode() + body.length())));
      }
    }, WAIT);
    Await.outcome(Future.join(answers), WAIT, "The warm-up items got no answer.");
    BatchClient.Upload upload = BatchClient.upload(client, context, verticle.port, "warm-up", 2 * 1024 * 1024);
    archive.awaitOpened(WAIT.toMillis()).ifPresent(SlowArchive.Disk::open);
    Await.outcome(upload.response(), WAIT, "The warm-up batch got no answer.");
    Await.outcome(client.close(), WAIT, "The warm-up client did not close.");
    Await.outcome(vertx.undeploy(id), WAIT, "The warm-up service did not undeploy.");
    FloodTest.heapAfterGc();
  }

  /** The exercise's two routes, written by the test: nothing of the learner's runs in the warm-up. */
  private static final class WarmVerticle extends VerticleBase {
    private final HeldSink sink;
    private final SlowArchive archive;
    private volatile int port;
    private int inService;

    WarmVerticle(HeldSink sink, SlowArchive archive) {
      this.sink = sink;
      this.archive = archive;
    }

    @Override
    public Future<?> start() {
      Router router = Router.router(vertx);
      router.post("/items").handler(BodyHandler.create(false)).handler(ctx -> {
        Buffer item = ctx.body().buffer();
        if (inService >= 2) {
          ctx.response().setStatusCode(503).putHeader("Retry-After", "1").end("busy");
          return;
        }
        inService++;
        ctx.response().setStatusCode(202).end();
        sink.process(item).andThen(done -> inService--);
      });
      router.put("/batches/:name").handler(ctx -> ctx.request().pipeTo(archive.open(ctx.pathParam("name")))
          .onComplete(done -> ctx.response().setStatusCode(done.succeeded() ? 201 : 500).end()));
      return vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1")
          .onSuccess(server -> port = server.actualPort());
    }
  }
}
