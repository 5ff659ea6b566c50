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
 * The steps that warm the JVM up, with the test's own code only: a service of its own on the exercise's two routes
 * (items taken in with 202 or refused with 503 and Retry-After, batches read with pause and resume), a burst of
 * pipelined requests, a streamed upload, and the test's archive written to directly. In a cold JVM the first run of
 * those paths loads and interprets enough classes to look like a stall of the learner's code; after this, the
 * learner's first request costs what it really costs.
 *
 * <p>It is not an answer to the exercise, and must not become one (the tests ship to learners): it answers 202 or
 * 503 by the request's number, not by what is in the service, and it reads a batch without writing it anywhere.
 */
final class SceneWarmUp {

  private static final Duration WAIT = Duration.ofSeconds(20);

  private SceneWarmUp() {
  }

  static void steps(Vertx vertx) {
    HeldSink sink = new HeldSink();
    sink.completeFromNowOn();
    sink.answerNext(HeldSink.Answer.STORED_AT_ONCE, HeldSink.Answer.FAILED_AT_ONCE);
    WarmVerticle verticle = new WarmVerticle(sink);
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
    Await.outcome(upload.response(), WAIT, "The warm-up batch got no answer.");
    Await.outcome(client.close(), WAIT, "The warm-up client did not close.");
    Await.outcome(vertx.undeploy(id), WAIT, "The warm-up service did not undeploy.");
    writeToTheArchive(vertx);
    FloodTest.heapAfterGc();
  }

  /** The test's archive, written to by the test itself: a few writes past its queue's size, a drain, an end. */
  private static void writeToTheArchive(Vertx vertx) {
    SlowArchive archive = new SlowArchive();
    io.vertx.core.Promise<Void> ended = io.vertx.core.Promise.promise();
    io.looplab.grader.testkit.OnContext.run(vertx.getOrCreateContext(), () -> {
      SlowArchive.Disk disk = (SlowArchive.Disk) archive.open("warm-up");
      disk.drainHandler(v -> disk.end().onComplete(ended));
      for (int i = 0; i < SlowArchive.QUEUE_WRITES + 1; i++) {
        disk.write(BatchClient.chunk((long) i * BatchClient.CHUNK_BYTES, BatchClient.CHUNK_BYTES));
      }
      disk.open();
    }, WAIT);
    Await.outcome(ended.future(), WAIT, "The warm-up archive did not end.");
  }

  /**
   * The exercise's two routes, written by the test: nothing of the learner's runs in the warm-up. Every third item
   * is refused, whatever is in the service; a batch is read, a pause and a resume per chunk, and thrown away.
   */
  private static final class WarmVerticle extends VerticleBase {
    private final HeldSink sink;
    private volatile int port;
    private int requests;

    WarmVerticle(HeldSink sink) {
      this.sink = sink;
    }

    @Override
    public Future<?> start() {
      Router router = Router.router(vertx);
      router.post("/items").handler(BodyHandler.create(false)).handler(ctx -> {
        Buffer item = ctx.body().buffer();
        if (++requests % 3 == 0) {
          ctx.response().setStatusCode(503).putHeader("Retry-After", "1").end("warm-up: every third is refused");
          return;
        }
        ctx.response().setStatusCode(202).end();
        sink.process(item).onComplete(done -> { });
      });
      router.put("/batches/:name").handler(ctx -> {
        long[] read = {0};
        ctx.request().handler(chunk -> {
          read[0] += chunk.length();
          ctx.request().pause();
          vertx.runOnContext(v -> ctx.request().resume());
        });
        ctx.request().endHandler(end -> ctx.response().setStatusCode(201).end("warm-up read " + read[0] + " bytes"));
      });
      return vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1")
          .onSuccess(server -> port = server.actualPort());
    }
  }
}
