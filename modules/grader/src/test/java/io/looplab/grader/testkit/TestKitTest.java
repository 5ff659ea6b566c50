package io.looplab.grader.testkit;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VerticleBase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The test kit waits a bounded time, says what the test wrote for each outcome, and runs steps where it is told. */
class TestKitTest {

  private static final Duration SHORT = Duration.ofMillis(50);
  private static final Duration LONG = Duration.ofSeconds(10);

  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() {
    Await.result(vertx.close(), LONG, "Vert.x did not close");
  }

  @Test
  @DisplayName("a late future fails the test with the test's own words for lateness")
  void lateFutureFailsWithTheTestsWords() {
    Promise<String> never = Promise.promise();
    AssertionFailedError late = assertThrows(AssertionFailedError.class,
        () -> Await.result(never.future(), SHORT, "The quote never came."));
    assertEquals("The quote never came.", late.getMessage());
  }

  @Test
  @DisplayName("a failed future where an answer was expected is named, with its cause kept")
  void failureWhereAnAnswerWasExpectedIsNamed() {
    IllegalStateException cause = new IllegalStateException("feed down");
    AssertionFailedError failed = assertThrows(AssertionFailedError.class,
        () -> Await.result(Future.failedFuture(cause), LONG, "late"));
    assertEquals("Expected an answer, but got the failure java.lang.IllegalStateException: feed down",
        failed.getMessage());
    assertSame(cause, failed.getCause());
  }

  @Test
  @DisplayName("awaiting a failure returns it, and an answer instead is reported with the test's format")
  void awaitedFailureOrTheAnswerInstead() {
    IllegalStateException cause = new IllegalStateException("no seats");
    assertSame(cause, Await.failure(Future.failedFuture(cause), LONG, "late", "answered %s"));
    AssertionFailedError answered = assertThrows(AssertionFailedError.class,
        () -> Await.failure(Future.succeededFuture(42), LONG, "late", "It answered %s instead of failing."));
    assertEquals("It answered 42 instead of failing.", answered.getMessage());
  }

  @Test
  @DisplayName("results of several futures come back in order, and one late future fails them all")
  void resultsInOrder() {
    assertEquals(List.of(1, 2), Await.results(List.of(Future.succeededFuture(1), Future.succeededFuture(2)), LONG,
        "late"));
    Promise<Integer> never = Promise.promise();
    assertThrows(AssertionFailedError.class,
        () -> Await.results(List.of(Future.succeededFuture(1), never.future()), SHORT, "one is late"));
  }

  @Test
  @DisplayName("a step runs on the context it is given, and what it throws reaches the test unchanged")
  void stepRunsOnTheGivenContext() {
    Context context = vertx.getOrCreateContext();
    assertSame(context, OnContext.call(context, Vertx::currentContext, LONG));
    IllegalArgumentException thrown = new IllegalArgumentException("bad seat");
    assertSame(thrown, assertThrows(IllegalArgumentException.class,
        () -> OnContext.run(context, () -> {
          throw thrown;
        }, LONG)));
  }

  @Test
  @DisplayName("a step that cannot run in time fails the test instead of hanging it")
  void busyLoopFailsTheStep() {
    Context context = vertx.getOrCreateContext();
    AtomicBoolean letGo = new AtomicBoolean();
    long bound = System.nanoTime() + LONG.toNanos();
    try {
      AssertionFailedError late = assertThrows(AssertionFailedError.class, () -> OnContext.run(context, () -> {
        while (!letGo.get() && System.nanoTime() < bound) {
          Thread.onSpinWait(); // busy until the test has seen the timeout
        }
      }, SHORT));
      assertEquals("The event loop did not run the test's step within 50 ms: something is keeping it busy or blocked.",
          late.getMessage());
    } finally {
      letGo.set(true);
    }
  }

  @Test
  @DisplayName("a deployed service is called on its own port, and the kit's web round trip answers")
  void deployedServiceAnswers() {
    EchoVerticle echo = new EchoVerticle();
    DeployedService service = DeployedService.deploy(vertx, echo, EchoVerticle::port, LONG);
    assertEquals("/seats", Await.result(service.get("/seats"), LONG, "no answer").bodyAsString());
    WarmUp.webRoundTrip(vertx);
  }

  @Test
  @DisplayName("the warm-up runs once per package, and what its steps throw is not graded")
  void warmUpRunsOncePerPackage() {
    java.util.concurrent.atomic.AtomicInteger runs = new java.util.concurrent.atomic.AtomicInteger();
    WarmUp.jvm(v -> {
      runs.incrementAndGet();
      throw new IllegalStateException("not graded");
    });
    WarmUp.jvm(v -> runs.incrementAndGet());
    // the only calls of WarmUp.jvm in this package: the first runs, the second finds the JVM warm
    assertEquals(1, runs.get(), "only the first warm-up of a package runs its steps");
  }

  /** Answers every request with its path. */
  private static final class EchoVerticle extends VerticleBase {
    private volatile int port;

    int port() {
      return port;
    }

    @Override
    public Future<?> start() {
      return vertx.createHttpServer().requestHandler(request -> request.response().end(request.path()))
          .listen(0).onSuccess(server -> port = server.actualPort());
    }
  }

  @Test
  @DisplayName("a check fails with its message alone")
  void checkFailsWithItsMessageAlone() {
    Checks.require(true, "never shown");
    assertEquals("Two bookings paid at once.", assertThrows(AssertionFailedError.class,
        () -> Checks.require(false, "Two bookings paid at once.")).getMessage());
    assertEquals("8 s", Await.inWords(Duration.ofSeconds(8)));
    assertEquals("300 ms", Await.inWords(Duration.ofMillis(300)));
  }
}
