package io.looplab.backpressure;

import io.looplab.grader.testkit.Await;
import io.looplab.grader.testkit.DeployedService;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.ext.web.client.WebClient;

import java.time.Duration;

import static io.looplab.grader.testkit.Checks.require;

/**
 * What the tests of IngestVerticle start from: the verticle deployed on 127.0.0.1 with a {@link HeldSink} behind
 * {@code POST /items} and a {@link SlowArchive} behind {@code PUT /batches/:name}, and the requests a client sends.
 */
final class IngestScene {

  /**
   * How long a test waits for what a correct solution does at once: a deployment, an answer, a call into the sink.
   * Only a broken solution ever waits it out; a busy shared machine never comes near.
   */
  static final Duration WAIT = Duration.ofSeconds(10);

  /** The size of the items the tests send (the first line is the item's name). */
  static final int ITEM_BYTES = 16 * 1024;

  final HeldSink sink = new HeldSink();
  final SlowArchive archive = new SlowArchive();
  final int limit;
  final IngestVerticle verticle;
  final DeployedService service;
  final HttpClient client;
  /**
   * The one context every request of the test's client is made on. A request made from the test's own thread would
   * get a new context each time, on any event loop, while the connection it reuses lives on another: its answer then
   * crosses threads, and Vert.x 5.0.7 was seen to lose one now and then (1 request in 3 runs).
   */
  final Context clientContext;

  /** A reply to {@code POST /items}: its status, its Retry-After header (null if none), its body. */
  record Reply(int status, String retryAfter, String body) {
    String describe() {
      return status + (retryAfter == null ? " (no Retry-After header)" : " with Retry-After: " + retryAfter)
          + (body.isBlank() ? "" : " and the body \"" + (body.length() > 120 ? body.substring(0, 120) + "..." : body)
          + "\"");
    }
  }

  private IngestScene(Vertx vertx, int limit, HttpClient client) {
    this.limit = limit;
    this.client = client;
    this.clientContext = vertx.getOrCreateContext();
    this.verticle = new IngestVerticle(sink, archive, limit);
    this.service = DeployedService.deploy(vertx, verticle, IngestVerticle::port, WebClient.wrap(client), WAIT);
    require(service.port() > 0, "IngestVerticle deployed, but port() returned " + service.port()
        + ": set it from the server's actualPort() before start()'s future completes.");
  }

  /** The verticle, deployed with a limit of {@code limit} items, and a client of a few connections. */
  static IngestScene deploy(Vertx vertx, int limit) {
    return deploy(vertx, limit, new PoolOptions().setHttp1MaxSize(8));
  }

  static IngestScene deploy(Vertx vertx, int limit, PoolOptions pool) {
    HttpClient client = vertx.createHttpClient(new HttpClientOptions().setDefaultHost("127.0.0.1"), pool);
    return new IngestScene(vertx, limit, client);
  }

  /** Sends {@code POST /items} with the item {@code name} of {@link #ITEM_BYTES} bytes. */
  Future<Reply> post(String name) {
    return post(client, name, Items.of(name, ITEM_BYTES));
  }

  Future<Reply> post(HttpClient client, String name, Buffer item) {
    Promise<Reply> reply = Promise.promise();
    clientContext.runOnContext(v -> client.request(new RequestOptions().setMethod(HttpMethod.POST)
            .setPort(service.port()).setHost("127.0.0.1").setURI("/items"))
        .compose(request -> request.send(item))
        .compose(response -> response.body().map(body -> new Reply(response.statusCode(),
            response.getHeader("Retry-After"), body.toString())))
        .onComplete(reply));
    return reply.future();
  }

  /**
   * A {@code POST /items} whose body is sent in two pieces: the head and the first half at once, the second half
   * when the test says so ({@link #finish}).
   */
  record InPieces(String name, Future<Void> firstHalfWritten, Future<Reply> reply, Promise<Void> secondHalf) {
  }

  /** Sends the head of {@code POST /items} and the first half of the item {@code name}; the rest waits. */
  InPieces postInPieces(String name) {
    Buffer item = Items.of(name, ITEM_BYTES);
    Promise<Void> firstHalf = Promise.promise();
    Promise<Reply> reply = Promise.promise();
    Promise<Void> secondHalf = Promise.promise();
    clientContext.runOnContext(v -> client.request(new RequestOptions().setMethod(HttpMethod.POST)
            .setPort(service.port()).setHost("127.0.0.1").setURI("/items"))
        .onFailure(failure -> {
          firstHalf.tryFail(failure);
          reply.tryFail(failure);
        })
        .onSuccess(request -> {
          request.putHeader("Content-Length", Integer.toString(ITEM_BYTES));
          request.response().compose(response -> response.body().map(body -> new Reply(response.statusCode(),
              response.getHeader("Retry-After"), body.toString()))).onComplete(reply);
          request.write(item.getBuffer(0, ITEM_BYTES / 2)).onComplete(firstHalf);
          secondHalf.future().onSuccess(go -> request.end(item.getBuffer(ITEM_BYTES / 2, ITEM_BYTES)));
        }));
    return new InPieces(name, firstHalf.future(), reply.future(), secondHalf);
  }

  /** Sends the second halves of {@code pieces} together, in one task of the client's loop. */
  void finish(InPieces... pieces) {
    clientContext.runOnContext(v -> {
      for (InPieces piece : pieces) {
        piece.secondHalf().tryComplete();
      }
    });
  }

  /**
   * Waits until the service has read what the client wrote so far: a {@code GET} of a path it does not serve, on
   * another connection, answered once the service's loop has read the bytes that arrived before it.
   */
  void awaitServiceRead() {
    Promise<Integer> answered = Promise.promise();
    clientContext.runOnContext(v -> client.request(new RequestOptions().setMethod(HttpMethod.GET)
            .setPort(service.port()).setHost("127.0.0.1").setURI("/nothing-here"))
        .compose(request -> request.send())
        .compose(response -> response.body().map(body -> response.statusCode()))
        .onComplete(answered));
    Await.outcome(answered.future(), WAIT, "GET /nothing-here got no answer within " + Await.inWords(WAIT)
        + ": the service's event loop is not answering.");
  }

  /** A {@code POST /items} under way: when the client had written all of it, and its reply. */
  record Sent(Future<Void> written, Future<Reply> reply) {
  }

  /** Sends {@code POST /items} with the item {@code name}, and says when the client has written all of it. */
  Sent postTracked(String name) {
    Promise<Void> written = Promise.promise();
    Promise<Reply> reply = Promise.promise();
    clientContext.runOnContext(v -> client.request(new RequestOptions().setMethod(HttpMethod.POST)
            .setPort(service.port()).setHost("127.0.0.1").setURI("/items"))
        .onFailure(failure -> {
          written.tryFail(failure);
          reply.tryFail(failure);
        })
        .onSuccess(request -> {
          request.response().compose(response -> response.body().map(body -> new Reply(response.statusCode(),
              response.getHeader("Retry-After"), body.toString()))).onComplete(reply);
          request.end(Items.of(name, ITEM_BYTES)).onComplete(written);
        }));
    return new Sent(written.future(), reply.future());
  }

  /** Starts {@code PUT /batches/name} of {@code size} bytes, on the client's context. */
  BatchClient.Upload upload(String name, long size) {
    return BatchClient.upload(client, clientContext, service.port(), name, size);
  }

  /** Posts the item {@code name} and waits for the reply. */
  Reply postAndWait(String name) {
    return Await.result(post(name), WAIT, "POST /items with " + name + " got no answer within "
        + Await.inWords(WAIT) + ". Answer every item at once: 202 when it is taken in, 503 when the service is full. "
        + "Never keep a request waiting for the sink.");
  }

  /** Whether {@code value} is a Retry-After value that HTTP allows: a number of seconds, or an HTTP date. */
  static boolean isValidRetryAfter(String value) {
    if (value == null) {
      return false;
    }
    String v = value.trim();
    if (v.matches("\\d{1,9}")) {
      return true;
    }
    try {
      java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME.parse(v);
      return true;
    } catch (java.time.format.DateTimeParseException e) {
      return false;
    }
  }

  /** Undeploys the verticle and closes the client: for a test that deploys a scene per release order. */
  void close(Vertx vertx) {
    Await.outcome(client.close(), WAIT, "The test's client did not close.");
    Await.outcome(vertx.undeploy(service.deploymentId()), WAIT, "IngestVerticle did not undeploy within "
        + Await.inWords(WAIT) + ".");
  }

  /**
   * When the sink, which failed {@code name}, was given it again: a sentence that says so, for a message that would
   * otherwise blame a place not given back; "" when it was given once.
   */
  String givenAgain(String name) {
    int times = sink.timesGiven().getOrDefault(name, 0);
    return times <= 1 ? "" : " The sink failed " + name + ", and your code gave it to the sink again (" + times
        + " times in all), so its place was still taken" + sinkCallSite() + ". An item taken in reaches the sink "
        + "exactly once: the sink's failure is its last word on that item, and the item's place is free again.";
  }

  /** Where the learner's code first called the sink, for a message: " (your code called the sink from ...)". */
  String sinkCallSite() {
    return sink.firstCallSite().map(site -> " (your code called the sink from " + site + ")").orElse("");
  }
}
