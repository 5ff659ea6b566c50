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
    // TODO: this takes in every item that arrives and hands it to the sink at once, however many are already
    //  there: under a flood, thousands of items are in the sink at the same time. Keep at most `limit` items in the
    //  service (taken in and not yet done by the sink, whether it stored them, failed them, or threw from process()),
    //  and refuse the others at once with 503 and a Retry-After header (RETRY_AFTER_SECONDS), before the sink sees
    //  them.
    ctx.response().setStatusCode(202).end();
    sink.process(item);
  }

  private void storeBatch(RoutingContext ctx) {
    HttpServerRequest request = ctx.request();
    String name = ctx.pathParam("name");
    WriteStream<Buffer> batch = archive.open(name);
    // TODO: this copy loop writes every chunk the moment it arrives, however full the archive's write queue is: a
    //  big batch piles up in memory in front of the slow archive. Copy at the archive's pace instead: stop reading
    //  the request while batch.writeQueueFull(), and go on from the archive's drain handler (request.pipeTo(batch)
    //  does all of it, and ends the stream for you).
    request.handler(chunk -> batch.write(chunk));
    request.exceptionHandler(failure -> ctx.response().setStatusCode(500).end("storing " + name + " failed: "
        + failure.getMessage()));
    request.endHandler(end -> batch.end()
        .onSuccess(v -> ctx.response().setStatusCode(201).end("stored " + name))
        .onFailure(failure -> ctx.response().setStatusCode(500).end("storing " + name + " failed: "
            + failure.getMessage())));
  }
}
