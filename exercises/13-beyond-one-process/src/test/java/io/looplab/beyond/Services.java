package io.looplab.beyond;

import io.looplab.grader.sync.GatedDependency;
import io.looplab.grader.testkit.Await;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The test's HTTP services on 127.0.0.1, which every node calls: the availability check (part one) and the ledger
 * (part two). Each call is answered at once or held for the test, as the test sets it, so that the test decides
 * which node's call answers first.
 */
final class Services implements AutoCloseable {

  private static final Duration START_AND_STOP = Duration.ofSeconds(30);

  /**
   * A ledger read the test holds: the value is taken when the read arrives, as a real service would, and only the
   * answer is late. So a node whose read was held still gets the count as it was before the other node wrote.
   */
  record LedgerRead(String show, int free) {
  }

  /** A ledger write the test holds: it lands when the test releases it. */
  record LedgerWrite(String show, int free) {
  }

  private final Vertx vertx = Vertx.vertx();
  private int port;
  private final AtomicInteger shows = new AtomicInteger();

  /** Part one: the availability check every node calls. Per person: answered at once, or held for the test. */
  volatile Map<String, Boolean> checksAnsweredAtOnce = Map.of();
  volatile GatedDependency<String, Boolean> heldChecks = new GatedDependency<>();

  /** Part two: the ledger, and its reads: answered at once, or held for the test. */
  final Map<String, Integer> ledger = new ConcurrentHashMap<>();
  volatile boolean readsAnsweredAtOnce = true;
  volatile GatedDependency<LedgerRead, Integer> heldReads = new GatedDependency<>();

  /**
   * Part two: ledger writes, applied at once, or held for the test and applied when it releases them. A race holds
   * the writes as it holds the reads, so that a node that lets go of the lock after its read but before its write is
   * seen: the other node reads while the write is still held.
   */
  volatile boolean writesAppliedAtOnce = true;
  volatile GatedDependency<LedgerWrite, Void> heldWrites = new GatedDependency<>();

  private Services() {
  }

  /** Starts the services on a Vert.x instance of their own, on a port the system picks. */
  static Services start() {
    Services services = new Services();
    services.port = Await.result(services.vertx.createHttpServer().requestHandler(services::serve)
        .listen(0, "127.0.0.1"), START_AND_STOP, "The test's own HTTP services did not start within "
        + Await.inWords(START_AND_STOP) + ".").actualPort();
    return services;
  }

  int port() {
    return port;
  }

  /** A new show in the ledger, with {@code free} seats. */
  String newLedgerShow(int free) {
    String show = "show-" + shows.incrementAndGet();
    ledger.put(show, free);
    return show;
  }

  private void serve(HttpServerRequest request) {
    String path = request.path();
    if (path.equals("/ping")) {
      request.response().end("pong");
    } else if (path.equals("/check")) {
      String who = request.getParam("who");
      Boolean atOnce = checksAnsweredAtOnce.get(who);
      reply(request, atOnce != null ? Future.succeededFuture(atOnce) : heldChecks.apply(who));
    } else if (path.startsWith("/ledger/") && request.method().name().equals("PUT")) {
      String show = path.substring("/ledger/".length());
      request.body().onSuccess(body -> {
        int free = Integer.parseInt(body.toString().trim());
        Future<Void> landed = writesAppliedAtOnce ? Future.succeededFuture() : heldWrites.apply(new LedgerWrite(show,
            free));
        landed.onComplete(done -> {
          if (done.succeeded()) {
            ledger.put(show, free);
            request.response().end();
          } else {
            request.response().setStatusCode(503).end(done.cause().getMessage());
          }
        });
      });
    } else if (path.startsWith("/ledger/")) {
      String show = path.substring("/ledger/".length());
      int free = ledger.get(show);
      reply(request, readsAnsweredAtOnce ? Future.succeededFuture(free) : heldReads.apply(new LedgerRead(show, free)));
    } else {
      request.response().setStatusCode(404).end("no such service: " + path);
    }
  }

  private static void reply(HttpServerRequest request, Future<?> answer) {
    answer.onComplete(done -> {
      if (done.succeeded()) {
        request.response().end(String.valueOf(done.result()));
      } else {
        request.response().setStatusCode(503).end(done.cause().getMessage());
      }
    });
  }

  @Override
  public void close() {
    Await.result(vertx.close(), START_AND_STOP, "The test's own HTTP services did not close within "
        + Await.inWords(START_AND_STOP) + ".");
  }
}
