package io.looplab.grader.testkit;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.BodyHandler;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Warms the JVM up before the first graded test, so that the guard judges the learner's code and not the JVM's
 * first steps. In a cold JVM:
 * <ul>
 *   <li>the first server socket initialises {@code sun.net.NetProperties}, which reads a file. On an event loop the
 *       blocking-call detector would stop that read inside a static initialiser, and the JDK's socket classes would
 *       stay broken for the rest of the JVM. {@link #jvm} opens one socket on the test's thread first;</li>
 *   <li>the first deployment, request, JSON body, lock or reply spends tens to hundreds of milliseconds loading
 *       and interpreting classes, which the stall detector could take for the learner's stall. The steps a test
 *       passes to {@link #jvm} run those paths once, with the test's own code.</li>
 * </ul>
 * Nothing here is graded: no test is running yet, and whatever fails here fails again, with its proper message, in
 * the test that grades it.
 *
 * <p>A JVM warms up once: an exercise split into several test classes calls {@link #jvm} from each (any of them may
 * run first), and only the first call, per package, runs its steps.
 */
public final class WarmUp {

  private static final Duration LIMIT = Duration.ofSeconds(20);
  private static final Set<String> WARMED_UP = ConcurrentHashMap.newKeySet();
  private static final StackWalker CALLER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

  /** The warm-up's steps: anything they throw is swallowed. */
  @FunctionalInterface
  public interface Steps {
    void run(Vertx vertx) throws Exception;
  }

  private WarmUp() {
  }

  /**
   * Opens a socket, then runs {@code steps} with a Vert.x instance of their own, which is closed after; at once
   * when a test class of the caller's package has done so in this JVM.
   */
  public static void jvm(Steps steps) {
    if (!WARMED_UP.add(CALLER.getCallerClass().getPackageName())) {
      return; // another test class of this exercise has warmed the JVM up already
    }
    warm(steps);
  }

  private static void warm(Steps steps) {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      socket.getLocalPort();
    } catch (IOException e) {
      // not graded; see the class comment
    }
    Vertx vertx = Vertx.vertx();
    try {
      steps.run(vertx);
    } catch (Exception | AssertionError e) {
      // not graded; see the class comment
    } finally {
      try {
        vertx.close().toCompletionStage().toCompletableFuture().get(LIMIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
      } catch (Exception e) {
        // not graded either
      }
    }
  }

  /**
   * Warms a grading JVM up before it knows its tests: a JVM started ahead of a grading (for {@code lab watch} and
   * {@code lab check}) runs the kit's own web round trip while it waits, so that the exercise's warm-up, which
   * still runs with the test's own code, finds the classes loaded. Marks no package as warmed up. Nothing here is
   * graded; an exercise without Vert.x Web on its class path skips it.
   */
  public static void aheadOfTests() {
    try {
      warm(WarmUp::webRoundTrip);
    } catch (LinkageError e) {
      // no Vert.x Web here: the exercise's own warm-up does it all
    }
  }

  /**
   * The Vert.x Web path most exercises use, with a verticle of the kit's own: a router, a JSON body, a worker pool
   * and a JSON answer, requested once.
   */
  public static void webRoundTrip(Vertx vertx) {
    WebVerticle verticle = new WebVerticle();
    DeployedService service = DeployedService.deploy(vertx, verticle, WebVerticle::port, LIMIT);
    Await.result(service.post("/", new JsonObject().put("warm", 1)), LIMIT, "The warm-up request got no answer.");
  }

  /** A small web service doing what the exercises' services do, correctly. */
  private static final class WebVerticle extends VerticleBase {
    private volatile int port;

    int port() {
      return port;
    }

    @Override
    public Future<?> start() {
      WorkerExecutor pool = vertx.createSharedWorkerExecutor("looplab-warm-up", 1);
      Router router = Router.router(vertx);
      router.post("/").handler(BodyHandler.create(false)).handler(ctx -> pool
          .executeBlocking(() -> ctx.body().asJsonObject().copy(), false)
          .onComplete(ctx::json, ctx::fail));
      return vertx.createHttpServer().requestHandler(router).listen(0).onSuccess(server -> port = server.actualPort());
    }
  }
}
