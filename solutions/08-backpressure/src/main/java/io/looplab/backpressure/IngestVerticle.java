package io.looplab.backpressure;

import io.looplab.downstream.Archive;
import io.looplab.downstream.ItemSink;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.streams.WriteStream;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;

/**
 * The ingest service, in front of two slow consumers. Two endpoints:
 * <ul>
 *   <li>{@code POST /items}: the body is one item (at most {@link #MAX_ITEM_BYTES} bytes). The answer is
 *       {@code 202 Accepted} once the item is taken in: from then on it is handed to the {@link ItemSink} exactly
 *       once. At most {@code limit} items are in the service at a time (handed to the sink, or waiting for it); an
 *       item leaves the service when the sink is done with it: stored, failed, or {@code process()} threw. Each
 *       instance counts its own items against its own {@code limit}. An item that finds the service full is refused
 *       at once with {@code 503 Service Unavailable} and a {@code Retry-After} header, and the sink never sees
 *       it;</li>
 *   <li>{@code PUT /batches/:name}: the body is a batch of any size, streamed into {@link Archive#open} at the
 *       archive's own pace. The answer is {@code 201 Created} once the whole batch is written and the stream's
 *       {@code end()} has succeeded, or {@code 500} with the reason when a write or {@code end()} fails.</li>
 * </ul>
 * The server listens on 127.0.0.1, on a free port: see {@link #port()}.
 */
public class IngestVerticle extends VerticleBase {

  /** The largest item {@code POST /items} takes; a bigger one is refused with 413. */
  public static final int MAX_ITEM_BYTES = 64 * 1024;

  /** What a refused item's {@code Retry-After} header says: come back in this many seconds. */
  static final String RETRY_AFTER_SECONDS = "1";

  private final ItemSink sink;
  private final Archive archive;
  private final int limit;
  private volatile int port;

  // FIX: the items in the service right now: taken in (answered 202) and not yet done by the sink. Only this
  // verticle's event loop reads and writes it (every handler and every callback below runs there), so a plain int
  // is enough: no two of them ever run at once.
  private int inService;

  public IngestVerticle(ItemSink sink, Archive archive, int limit) {
    this.sink = sink;
    this.archive = archive;
    this.limit = limit;
  }

  /** The port the HTTP server listens on, once the verticle is deployed. */
  public int port() {
    return port;
  }

  @Override
  public Future<?> start() {
    Router router = Router.router(vertx);
    router.post("/items").handler(BodyHandler.create(false).setBodyLimit(MAX_ITEM_BYTES)).handler(this::ingest);
    // No BodyHandler on the batches: it would read the whole batch into memory before the handler runs.
    router.put("/batches/:name").handler(this::storeBatch);
    return vertx.createHttpServer()
        .requestHandler(router)
        .listen(0, "127.0.0.1")
        .onSuccess(server -> port = server.actualPort());
  }

  private void ingest(RoutingContext ctx) {
    Buffer item = ctx.body().buffer();
    if (item == null || item.length() == 0) {
      ctx.response().setStatusCode(400).end("an item needs a body");
      return;
    }
    // FIX: a full service says so at once, instead of taking the item in and letting items pile up in memory (or
    // in the sink) faster than the sink can store them. 503 tells the client it is a passing condition, and
    // Retry-After tells it when to come back, so that well-behaved clients do not hammer a busy service.
    if (inService >= limit) {
      ctx.response()
          .setStatusCode(503)
          .putHeader("Retry-After", RETRY_AFTER_SECONDS)
          .end("busy: " + inService + " items are being stored; retry in " + RETRY_AFTER_SECONDS + " s");
      return;
    }
    inService++;
    ctx.response().setStatusCode(202).end();
    // FIX: the slot is given back when the sink is done with the item, whether it stored it or failed: andThen
    // runs on both outcomes. Given back on success only, every failure would shrink the service for good.
    handOver(item).andThen(done -> inService--);
  }

  // FIX: the sink's answer as a future on every path. A sink that throws instead of answering (a client that is not
  // connected) is done with the item as surely as one that fails its future: without this, the throw would go up
  // to the router, and the item's place would never come back.
  private Future<Void> handOver(Buffer item) {
    try {
      return sink.process(item);
    } catch (RuntimeException thrown) {
      return Future.failedFuture(thrown);
    }
  }

  private void storeBatch(RoutingContext ctx) {
    HttpServerRequest request = ctx.request();
    String name = ctx.pathParam("name");
    WriteStream<Buffer> batch = archive.open(name);
    // FIX: pipeTo copies at the archive's pace. After each write it asks batch.writeQueueFull(); when the archive
    // is full it pauses the request, so that Vert.x stops reading the socket and TCP makes the client wait, and it
    // resumes the request from the archive's drain handler. At most a write queue's worth of the batch is in
    // memory, however big the batch is. It ends the archive's stream when the request ends.
    request.pipeTo(batch)
        .onSuccess(v -> ctx.response().setStatusCode(201).end("stored " + name))
        .onFailure(failure -> ctx.response().setStatusCode(500).end("storing " + name + " failed: "
            + failure.getMessage()));
  }
}
