package io.looplab.singleowner;

import io.looplab.grader.sync.Signal;
import io.looplab.grader.sync.VerticleContext;
import io.looplab.grader.testkit.Await;
import io.looplab.grader.testkit.DeployedService;
import io.vertx.core.Context;
import io.vertx.core.Deployable;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.opentest4j.AssertionFailedError;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.looplab.grader.testkit.Checks.require;

/**
 * What every test of this exercise starts from: the application (or one of its verticles) deployed with a config the
 * test chooses, a {@link HeldCatalog} as the old catalog server, an HTTP client that opens a new connection for every
 * request (so that requests are spread over all the edge's instances), and a note of which thread sent each message
 * to an address. A test class registers one with {@code @RegisterExtension}; after each test, every lookup still held
 * is answered.
 */
final class LabScene implements AfterEachCallback {

  /**
   * How long the test waits for something a correct solution does in a few milliseconds. Only a broken solution ever
   * waits it out; a slow shared machine never comes near.
   */
  static final Duration WAIT = Duration.ofSeconds(5);

  /** The edge's timeout in the tests that do not test it: far above anything a loaded machine needs. */
  static final long EASY_TIMEOUT_MS = 5_000;

  static final int EDGE_INSTANCES = 4;

  final HeldCatalog catalog = new HeldCatalog();
  private final List<String> senders = new CopyOnWriteArrayList<>();
  private final List<Context> senderContexts = new CopyOnWriteArrayList<>();
  private final Signal sent = new Signal();
  private String sendersOf;
  private DeployedService app;

  /** A config for the whole application: the stock, the edge's instances and timeout, and a free port. */
  static JsonObject config(long timeoutMs, JsonObject stock) {
    return new JsonObject().put("http.port", freePort()).put("timeout.ms", timeoutMs)
        .put("edge.instances", EDGE_INSTANCES).put("stock", stock);
  }

  /** Deploys the whole application, LabApp, with {@code config} and this scene's catalog. */
  DeployedService deployApp(Vertx vertx, JsonObject config) {
    return deploy(vertx, new LabApp(catalog), new DeploymentOptions().setConfig(config), "LabApp");
  }

  /** Deploys one verticle of the application, alone, as the test chooses. */
  DeployedService deploy(Vertx vertx, Deployable verticle, DeploymentOptions options, String name) {
    StockLedger.forgetAll();
    String id = Await.result(vertx.deployVerticle(verticle, options), WAIT, "Deploying " + name + " did not finish "
        + "within " + Await.inWords(WAIT) + ": start() must complete the future it returns once everything it "
        + "deploys has started.");
    WebClient client = WebClient.create(vertx, new WebClientOptions().setKeepAlive(false),
        new PoolOptions().setHttp1MaxSize(32));
    app = new DeployedService(id, options.getConfig().getInteger("http.port", 0), client);
    return app;
  }

  /** What the last deploy deployed. */
  DeployedService deployedApp() {
    return app;
  }

  /** From now on, notes the thread that sends each message to {@code address}. */
  void recordSendersTo(Vertx vertx, String address) {
    sendersOf = address;
    vertx.eventBus().addOutboundInterceptor(delivery -> {
      if (delivery.message().address().equals(sendersOf)) {
        senders.add(Thread.currentThread().getName());
        senderContexts.add(VerticleContext.rootOf(Vertx.currentContext()));
        sent.fire();
      }
      delivery.next();
    });
  }

  /** The threads that sent a message to the address given to {@link #recordSendersTo}, one entry per message. */
  List<String> senders() {
    return List.copyOf(senders);
  }

  /**
   * How many verticle instances sent to the address given to {@link #recordSendersTo}: each instance has a context of
   * its own, and the duplicates Vert.x makes of it for each request count as the instance's.
   */
  int senderInstances() {
    return (int) senderContexts.stream().filter(java.util.Objects::nonNull).distinct().count();
  }

  /** Waits until {@code count} messages were sent to the recorded address, or {@code within} passes; whether they were. */
  boolean awaitSenders(int count, Duration within) {
    return sent.await(() -> senders.size() >= count, within.toMillis());
  }

  /** Asks {@code address} over the event bus, as the edge would, and gives up after {@link #WAIT}. */
  static Future<Message<JsonObject>> ask(Vertx vertx, String address, String action, String item) {
    DeliveryOptions options = new DeliveryOptions().setSendTimeout(WAIT.toMillis());
    if (action != null) {
      options.addHeader(Protocol.ACTION, action);
    }
    return vertx.eventBus().request(address, new JsonObject().put("item", item), options);
  }

  /** The answer to a request, or a failure that names what went wrong on the way, for a learner. */
  static JsonObject answerOf(Future<Message<JsonObject>> request, String what) {
    var outcome = Await.outcome(request, WAIT.plusSeconds(1), what + " got no answer within " + Await.inWords(WAIT)
        + ".");
    if (outcome.succeeded()) {
      return outcome.result().body();
    }
    Throwable failure = outcome.cause();
    String why = failure instanceof ReplyException reply ? switch (reply.failureType()) {
      case NO_HANDLERS -> " Nothing consumes at that address: register a consumer there in the verticle's start().";
      case TIMEOUT -> " Nobody answered: every request must get an answer, message.reply or message.fail.";
      case RECIPIENT_FAILURE -> " (code " + reply.failureCode() + ") The recipient refused a request it should have "
          + "answered.";
      default -> "";
    } : "";
    throw new AssertionFailedError(what + " failed with " + failure + "." + why, failure);
  }

  /** The ReplyException a request failed with; fails the test, saying what came instead, if it got an answer. */
  static ReplyException refusal(Future<Message<JsonObject>> request, String what, String expected) {
    Throwable failure = Await.failure(request, WAIT.plusSeconds(1), what + ": no answer at all within "
        + Await.inWords(WAIT) + ".", what + " was answered with the success %s. " + expected);
    if (!(failure instanceof ReplyException reply)) {
      throw new AssertionFailedError(what + " failed with " + failure + ", not with a ReplyException. " + expected,
          failure);
    }
    return reply;
  }

  /** The JSON body of an HTTP answer, or a failure that shows what the body was. */
  static JsonObject jsonOf(HttpResponse<Buffer> response, String request) {
    try {
      JsonObject json = response.bodyAsJsonObject();
      require(json != null, request + " answered an empty body.");
      return json;
    } catch (RuntimeException e) {
      throw new AssertionFailedError(request + " should answer a JSON object, but answered: "
          + response.bodyAsString());
    }
  }

  /**
   * The "error" of a failure's body, which must be a JSON object {"error": reason}: a reason that is only somewhere in
   * the text is not enough, a client reads the field.
   */
  static String errorOf(HttpResponse<Buffer> answer, String what) {
    String body = bodyOf(answer);
    JsonObject json;
    try {
      json = new JsonObject(body);
    } catch (RuntimeException e) {
      throw new AssertionFailedError(what + " but its body is not a JSON object: \"" + body + "\". "
          + "Answer the reason as {\"error\": reason}, for example ctx.response().end(new JsonObject().put("
          + "\"error\", reason).encode()).");
    }
    Object error = json.getValue("error");
    require(error instanceof String text && !text.isBlank(), what + " with the body " + body + ", which has no "
        + "reason in its field \"error\". Answer {\"error\": reason}, the reason in words.");
    return (String) error;
  }

  /** The body of an HTTP answer, as text ("" when empty). */
  static String bodyOf(HttpResponse<Buffer> response) {
    String body = response.bodyAsString();
    return body == null ? "" : body;
  }

  /**
   * The warm-up's steps (see {@code WarmUp}): the Vert.x Web path, then an event-bus request answered, one failed
   * with a code and one that times out, all with the test's own consumer.
   */
  static void warmUp(Vertx vertx) {
    io.looplab.grader.testkit.WarmUp.webRoundTrip(vertx);
    vertx.eventBus().<JsonObject>consumer("warm-up", m -> {
      if ("fail".equals(m.headers().get(Protocol.ACTION))) {
        m.fail(1, "warm");
      } else if ("answer".equals(m.headers().get(Protocol.ACTION))) {
        m.reply(m.body());
      }
    });
    for (String action : List.of("answer", "fail", "silent")) {
      DeliveryOptions options = new DeliveryOptions().addHeader(Protocol.ACTION, action).setSendTimeout(50);
      Await.outcome(vertx.eventBus().request("warm-up", new JsonObject().put("item", "x"), options), WAIT, "");
    }
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("The test could not find a free port", e);
    }
  }

  @Override
  public void afterEach(ExtensionContext context) {
    catalog.answerAll();
  }
}
