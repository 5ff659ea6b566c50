package io.looplab.promises;

import io.looplab.grader.Outcome;
import io.looplab.grader.testkit.Await;
import io.looplab.grader.testkit.DeployedOnContext;
import io.looplab.grader.testkit.OnContext;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import org.opentest4j.AssertionFailedError;

import java.time.Duration;
import java.util.function.Function;

import static io.looplab.grader.testkit.Checks.require;

/**
 * One QuoteService, deployed as a verticle over the test's {@link FakeQuoteClient}, and the calls the test makes to
 * it: each call runs on the service's event loop, as a request handler of the verticle would, and its outcome is
 * noted together with the thread its continuation ran on.
 */
final class QuoteScene {

  /** How long the test waits for what a correct service does at once: a deployment, a request, an answer. */
  static final Duration WAIT = Duration.ofSeconds(5);
  /** The timeout of a service whose timer must never fire during a test. */
  static final Duration NEVER = Duration.ofSeconds(60);

  final Vertx vertx;
  final FakeQuoteClient client = new FakeQuoteClient();
  final QuoteService service;
  final String deploymentId;
  final Context context;

  QuoteScene(Vertx vertx) {
    this(vertx, NEVER);
  }

  QuoteScene(Vertx vertx, Duration timeout) {
    this.vertx = vertx;
    this.service = new QuoteService(client, timeout);
    DeployedOnContext deployed = DeployedOnContext.deploy(vertx, service, WAIT);
    this.deploymentId = deployed.deploymentId();
    this.context = deployed.context();
  }

  /** Runs {@code step} on the service's event loop, and notes what its future ends with. */
  <T> Call<T> call(String what, Function<QuoteService, Future<T>> step) {
    Call<T> call = new Call<>(what, client);
    OnContext.run(context, () -> {
      Future<T> future;
      call.started = System.nanoTime();
      try {
        future = step.apply(service);
      } catch (RuntimeException thrown) {
        throw new AssertionFailedError(what + " threw " + thrown + " instead of returning a future. A method that "
            + "returns a Future reports every problem by failing it: the caller composes on the future, and an "
            + "exception thrown at it skips all of that.", thrown);
      }
      require(future != null, what + " returned null instead of a future.");
      future.onComplete(done -> call.complete(done.succeeded() ? Outcome.of(done.result() == null ? NULL
          : done.result()) : Outcome.failed(done.cause())));
    }, WAIT);
    return call;
  }

  /** What a future completed with null is noted as, since an Outcome never holds null. */
  static final Object NULL = new Object() {
    @Override
    public String toString() {
      return "null";
    }
  };

  /**
   * Lets the event loop run what the last step queued (a hop back onto the loop, and one more) before the test looks.
   * Only used before checks that a correct service passes whatever it queued; anything to wait for is waited for.
   */
  void flush() {
    for (int round = 0; round < 3; round++) {
      OnContext.run(context, () -> { }, WAIT);
    }
  }

  int ignoredCallbacks() {
    return OnContext.call(context, service::ignoredCallbacks, WAIT);
  }

  int pending() {
    return OnContext.call(context, service::pending, WAIT);
  }

  /**
   * A context on another event loop than the service's: where a client with Vert.x inside would call back from. Event
   * loops are handed out in turn, so a few tries find one on another thread.
   */
  Context anotherEventLoop() {
    String loop = loopThread();
    for (int tries = 0; tries < 16; tries++) {
      Context other = ((VertxInternal) vertx).createEventLoopContext();
      if (!OnContext.call(other, () -> Thread.currentThread().getName(), WAIT).equals(loop)) {
        return other;
      }
    }
    throw new AssertionFailedError("The test found no event loop other than the service's " + loop + ".");
  }

  /** The name of the service's event-loop thread. */
  String loopThread() {
    return OnContext.call(context, () -> Thread.currentThread().getName(), WAIT);
  }

  /** Checks that nothing the service's callback did was thrown back into the client. */
  void assertNothingThrownBack(String story) {
    flush();
    require(client.thrownBack.isEmpty(), "After " + story + ", the service's callback threw back into the legacy "
        + "client: " + String.join("; ", client.thrownBack) + ". A callback that comes when the promise is already "
        + "complete must be ignored (tryComplete/tryFail answer false), never complete it again: complete/fail "
        + "throw IllegalStateException on a completed promise, and the client has nobody to give it to.");
  }

  /** Checks that no fetch is left waiting once all have answered. */
  void assertNothingPending(String story) {
    flush();
    int left = pending();
    require(left == 0, "After " + story + ", pending() says " + left + " fetch(es) still wait for the client. Take "
        + "each fetch off the list on every path (a quote, an error, a throw, a timeout): eventually or "
        + "onComplete/andThen run on all of them, onSuccess only on one.");
  }

  /** A call of the test into the service, and what its future ended with (noted on the thread that ran it). */
  static final class Call<T> {
    final String what;
    private final Promise<Outcome<Object>> done = Promise.promise();
    private volatile String thread;
    private volatile Context context;
    /** System.nanoTime() just before the call, on the loop, and when its outcome was noted. */
    private volatile long started;
    private volatile long ended;

    private final FakeQuoteClient client;

    Call(String what, FakeQuoteClient client) {
      this.what = what;
      this.client = client;
    }

    @SuppressWarnings("unchecked")
    private void complete(Outcome<?> outcome) {
      ended = System.nanoTime();
      thread = Thread.currentThread().getName();
      context = Vertx.currentContext();
      done.tryComplete((Outcome<Object>) outcome);
      client.wake();
    }

    boolean answered() {
      return done.future().isComplete();
    }

    /** The outcome now, without waiting. */
    Outcome<Object> now() {
      return answered() ? done.future().result() : Outcome.none();
    }

    /** The outcome, waited for (bounded). */
    Outcome<Object> outcome(String after) {
      return outcome(after, WAIT);
    }

    /** The outcome, waited for up to {@code within}. */
    Outcome<Object> outcome(String after, Duration within) {
      return Await.result(done.future(), within, what + " did not answer within " + Await.inWords(within) + " after "
          + after + ". Every path must complete the future it returned: a quote, an error, a throw.");
    }

    /** The context the caller's continuation ran on (null: none, a plain thread). */
    Context context() {
      return context;
    }

    /** How long the call took, from just before it was made to the moment its outcome reached the caller. */
    Duration took() {
      return Duration.ofNanos(ended - started);
    }

    /** The thread the caller's continuation ran on. */
    String thread() {
      return thread;
    }
  }
}
