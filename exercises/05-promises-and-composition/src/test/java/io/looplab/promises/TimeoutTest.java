package io.looplab.promises;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Outcome;
import io.looplab.grader.Points;
import io.looplab.grader.guard.GivenCode;
import io.looplab.grader.races.PendingTimers;
import io.looplab.grader.sync.VerticleContext;
import io.looplab.grader.testkit.WarmUp;
import io.looplab.promises.QuoteScene.Call;
import io.vertx.core.Vertx;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static io.looplab.grader.testkit.Checks.require;

/**
 * Grades fetch's timeout, the second racer for the same promise: a client that never answers makes the fetch fail
 * in time; a client that answers after that must lose quietly; a client that answers in time leaves no timer
 * behind. The service here gives up after {@link #TIMEOUT}; the test waits for that timer because it is the
 * behaviour under test, never to order anything.
 */
@GradedVertxTest
@GivenCode(value = LegacyQuoteClient.class, is = "the legacy quote client's callback API")
@Order(2)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@DisplayName("05 Promises: the timeout that races the callback")
class TimeoutTest {

  /** The service's timeout in this class: long beside the guard's 50 ms, short beside the test's 5 s waits. */
  static final Duration TIMEOUT = Duration.ofMillis(300);
  /**
   * How long the test waits for the timeout to fail a fetch: the timeout, and a wide margin for a loaded machine. Only
   * a service with no timeout at all waits it out.
   */
  static final Duration TIMED_OUT_WITHIN = Duration.ofSeconds(3);
  /** The latest a silent fetch may time out, from its call to its caller's answer: three times the timeout. */
  static final Duration LATEST = TIMEOUT.multipliedBy(3);

  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(SceneWarmUp::steps);
  }

  @Test
  @Order(1)
  @Points(3)
  @DisplayName("a client that never answers makes fetch fail with a TimeoutException once the timeout has passed")
  void aSilentClientTimesOut(Vertx vertx) {
    QuoteScene scene = new QuoteScene(vertx, TIMEOUT);
    Call<Quote> call = scene.call("fetch(\"main\", \"ACME\")", s -> s.fetch("main", "ACME"));
    scene.client.awaitRequest(1, call);
    Outcome<Object> outcome = call.outcome("the client stayed silent, with a timeout of " + TIMEOUT.toMillis()
        + " ms", TIMED_OUT_WITHIN);
    require(outcome.isFailure() && isTimeout(outcome.error()), call.what + " answered " + outcome + " when the "
        + "client never called back. Fail it with a java.util.concurrent.TimeoutException once the timeout passes, "
        + "so that its caller is not kept waiting for ever.");
    String loop = scene.loopThread();
    require(VerticleContext.isSameContext(call.context(), scene.context), "The timeout's failure reached the "
        + "caller of " + call.what + " on the thread " + call.thread() + " (" + VerticleContext.describe(
        call.context(), scene.context) + "), not on the verticle's event loop " + loop + ". Whatever fails the fetch "
        + "must do so on the verticle's context, and the caller's continuation runs where it does: a timer the "
        + "verticle sets (vertx.setTimer, vertx.timer) fires there, and so does timeout() on a future that belongs "
        + "to the verticle's context." + (String.valueOf(call.thread()).startsWith("globalEventExecutor")
        ? " globalEventExecutor is where timeout() fires for a future that belongs to no context, such as the "
        + "future of a Promise.promise()." : ""));
    long took = call.took().toMillis();
    // Timers never fire early, and this one is measured from before the call to after the answer: no slack needed
    // below. Above, three times the timeout: a wide margin for a loaded machine, and still short of a second.
    require(took >= TIMEOUT.toMillis(), call.what + " timed out after " + took + " ms, with a timeout of "
        + TIMEOUT.toMillis() + " ms: before the timeout had passed. A fetch gives up only once its whole timeout "
        + "has passed since its request, whatever else is in flight.");
    require(took <= LATEST.toMillis(), call.what + " timed out after " + took + " ms, with a timeout of "
        + TIMEOUT.toMillis() + " ms: later than the " + LATEST.toMillis() + " ms the test allows for a busy "
        + "machine: what failed the fetch waited longer than the timeout the service was given. Check the unit "
        + "and any rounding of the delay.");
    scene.assertNothingPending("a fetch that timed out");
  }

  @TestFactory
  @Order(2)
  @Points(3)
  @DisplayName("a callback that comes after the timeout is ignored: the caller keeps the timeout, nothing is thrown")
  Stream<DynamicTest> aLateCallbackLosesQuietly(Vertx vertx) {
    return Stream.of(
        late(vertx, "a late quote, on the loop", r -> r.quote(CallbackAdapterTest.ACME)),
        late(vertx, "a late error, on the loop", r -> r.error(new FeedDown("too late"))),
        late(vertx, "a late quote, from the client's thread", r -> r.quoteFrom("legacy-feed-late",
            CallbackAdapterTest.ACME)));
  }

  private static DynamicTest late(Vertx vertx, String story, Consumer<FeedRequest> answer) {
    return DynamicTest.dynamicTest(story, () -> {
      QuoteScene scene = new QuoteScene(vertx, TIMEOUT);
      Call<Quote> call = scene.call("fetch(\"main\", \"ACME\")", s -> s.fetch("main", "ACME"));
      FeedRequest request = scene.client.awaitRequest(1, call);
      Outcome<Object> timedOut = call.outcome("the timeout of " + TIMEOUT.toMillis() + " ms", TIMED_OUT_WITHIN);
      answer.accept(request);
      scene.assertNothingThrownBack(story + " after the fetch had timed out");
      require(timedOut.isFailure() && call.now().equals(timedOut), call.what + " answered " + timedOut + ", then "
          + call.now() + ". A caller hears one answer, the first.");
      int ignored = scene.ignoredCallbacks();
      require(ignored == 1, "ignoredCallbacks() is " + ignored + " after " + story + " after the timeout had "
          + "answered the fetch; it should be 1. The timeout was the fetch's answer, so this callback came after its "
          + "fetch was answered: count it like any other late callback.");
      scene.assertNothingPending(story);
    });
  }

  @Test
  @Order(3)
  @Points(2)
  @DisplayName("a fetch answered in time, with a quote or an error, leaves no timeout timer scheduled")
  void anAnswerInTimeCancelsTheTimer(Vertx vertx) {
    QuoteScene scene = new QuoteScene(vertx);
    // Both in flight at once, each with its own timer: one timer per fetch, never one for the service.
    Call<Quote> quoted = scene.call("fetch(\"main\", \"ACME\")", s -> s.fetch("main", "ACME"));
    FeedRequest acme = scene.client.awaitRequest(1, quoted);
    Call<Quote> failed = scene.call("fetch(\"main\", \"INITECH\")", s -> s.fetch("main", "INITECH"));
    FeedRequest initech = scene.client.awaitRequest(2, failed);
    acme.quote(CallbackAdapterTest.ACME);
    initech.error(new FeedDown("main feed down"));
    quoted.outcome("the client answered");
    failed.outcome("the client failed");
    scene.flush();
    List<String> timers = PendingTimers.of(vertx);
    require(timers.isEmpty(), "Both fetches have answered, and yet " + String.join(", ", timers) + " still "
        + (timers.size() == 1 ? "waits" : "wait") + " to fire (in " + QuoteScene.NEVER.toSeconds() + " s). Cancel "
        + "the timeout timer when the fetch ends some other way (vertx.cancelTimer in the clean-up that runs on "
        + "every path): at a thousand fetches a second, timers that outlive their fetch pile up by the thousand.");
  }

  static boolean isTimeout(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof java.util.concurrent.TimeoutException) {
        return true;
      }
    }
    return false;
  }
}
