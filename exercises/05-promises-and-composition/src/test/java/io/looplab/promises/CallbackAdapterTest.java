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

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.stream.Stream;

import static io.looplab.grader.testkit.Checks.require;

/**
 * Grades fetch, the adapter from the legacy client's callbacks to a Future: one answer per fetch, the first one,
 * whatever the client does (answers, fails, throws, calls back twice, calls back from a thread of its own). The client
 * never answers on its own: the test answers each request when and as often as the scenario says.
 */
@GradedVertxTest
@GivenCode(value = LegacyQuoteClient.class, is = "the legacy quote client's callback API")
@Order(1)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@DisplayName("05 Promises: one callback API adapted to one answer")
class CallbackAdapterTest {

  static final Quote ACME = new Quote("ACME", 12.5, "USD");
  static final Quote ACME_AGAIN = new Quote("ACME", 13.0, "USD");

  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(SceneWarmUp::steps);
  }

  @Test
  @Order(1)
  @Points(2)
  @DisplayName("fetch answers with the quote the client calls back with, not before, and leaves nothing pending")
  void fetchAnswersWithTheQuote(Vertx vertx) {
    QuoteScene scene = new QuoteScene(vertx);
    Call<Quote> call = scene.call("fetch(\"main\", \"ACME\")", s -> s.fetch("main", "ACME"));
    FeedRequest request = scene.client.awaitRequest(1, call);
    require(request.feed.equals("main") && request.symbol.equals("ACME"), call.what + " asked the client for "
        + request + " (at " + request.callSite + "), not for main:ACME.");
    scene.flush();
    require(!call.answered(), call.what + " answered " + call.now() + " before the client called back. Complete "
        + "the promise in the callback, with what the client answers.");
    request.quote(ACME);
    Outcome<Object> outcome = call.outcome("the client called onQuote(" + ACME + ")");
    require(outcome.equals(Outcome.of(ACME)), call.what + " answered " + outcome + " where the client called back "
        + "with " + ACME + ". Complete the promise with the quote the callback received.");
    scene.assertNothingPending("a fetch answered with a quote");
  }

  @Test
  @Order(2)
  @Points(2)
  @DisplayName("fetch fails with the very error the client calls back with")
  void fetchFailsWithTheClientsError(Vertx vertx) {
    QuoteScene scene = new QuoteScene(vertx);
    Call<Quote> call = scene.call("fetch(\"main\", \"ACME\")", s -> s.fetch("main", "ACME"));
    FeedDown down = new FeedDown("main feed down");
    scene.client.awaitRequest(1, call).error(down);
    Outcome<Object> outcome = call.outcome("the client called onError(" + down + ")");
    require(outcome.isFailure(), call.what + " answered " + outcome + " after the client called onError(" + down
        + "). An error must stay an error: fail the promise with it, never turn it into a value.");
    require(FeedDown.isOrWraps(outcome.error(), down), call.what + " failed with " + outcome.error() + ", not "
        + "with the client's own error (" + down + "). Pass the error on, so the caller learns what went wrong.");
    scene.assertNothingPending("a fetch failed by the client");
  }

  @Test
  @Order(3)
  @Points(2)
  @DisplayName("when the client throws instead of calling back, fetch returns a future failed with that exception")
  void aThrowingClientFailsTheFuture(Vertx vertx) {
    QuoteScene scene = new QuoteScene(vertx);
    FeedDown closed = new FeedDown("connection closed");
    scene.client.throwFor("ACME", closed);
    Call<Quote> call = scene.call("fetch(\"main\", \"ACME\")", s -> s.fetch("main", "ACME"));
    Outcome<Object> outcome = call.outcome("requestQuote threw " + closed);
    require(outcome.isFailure() && FeedDown.isOrWraps(outcome.error(), closed), call.what + " answered " + outcome
        + " when requestQuote threw " + closed + ". Catch what the client throws and fail the promise with it.");
    scene.assertNothingPending("a fetch whose client threw");
    List<String> timers = PendingTimers.of(vertx);
    require(timers.isEmpty(), call.what + " failed after requestQuote threw, and yet " + String.join(", ", timers)
        + (timers.size() == 1 ? " still waits" : " still wait") + " to fire (in " + QuoteScene.NEVER.toSeconds()
        + " s). No timer outlives its fetch, on this path too: the fetch has ended, so cancel its timeout (a clean-up "
        + "on the returned future runs on every path, the throw's included).");
  }

  @TestFactory
  @Order(4)
  @Points(5)
  @DisplayName("when the client calls back twice, the first answer stands, the second is ignored and counted in "
      + "ignoredCallbacks(), and nothing is thrown")
  Stream<DynamicTest> aSecondCallbackIsIgnoredAndCounted(Vertx vertx) {
    FeedDown down = new FeedDown("main feed down");
    return Stream.of(
        twice(vertx, "quote then quote", (r, n) -> r.quote(n == 1 ? ACME : ACME_AGAIN), Outcome.of(ACME)),
        twice(vertx, "quote then error", (r, n) -> {
          if (n == 1) {
            r.quote(ACME);
          } else {
            r.error(down);
          }
        }, Outcome.of(ACME)),
        twice(vertx, "error then quote", (r, n) -> {
          if (n == 1) {
            r.error(down);
          } else {
            r.quote(ACME);
          }
        }, Outcome.failed(down)),
        twice(vertx, "error then error", (r, n) -> r.error(n == 1 ? down : new FeedDown("again")),
            Outcome.failed(down)),
        DynamicTest.dynamicTest("two fetches, each called back three times", () -> thrice(vertx)));
  }

  /** Two fetches in flight, each answered three times, interleaved: four callbacks find their fetch answered. */
  private static void thrice(Vertx vertx) {
    QuoteScene scene = new QuoteScene(vertx);
    Call<Quote> acme = scene.call("fetch(\"main\", \"ACME\")", s -> s.fetch("main", "ACME"));
    FeedRequest a = scene.client.awaitRequest(1, acme);
    Call<Quote> globex = scene.call("fetch(\"main\", \"GLOBEX\")", s -> s.fetch("main", "GLOBEX"));
    FeedRequest g = scene.client.awaitRequest(2, globex);
    FeedDown down = new FeedDown("GLOBEX unavailable");
    a.quote(ACME);
    g.error(down);
    a.quote(ACME_AGAIN);
    g.quote(new Quote("GLOBEX", 7.0, "USD"));
    a.error(new FeedDown("ACME retry failed"));
    g.error(new FeedDown("GLOBEX again"));
    scene.assertNothingThrownBack("two fetches were each called back three times");
    Outcome<Object> first = acme.outcome("the client's first callback, onQuote(" + ACME + ")");
    Outcome<Object> second = globex.outcome("the client's first callback, onError(" + down + ")");
    require(first.equals(Outcome.of(ACME)) && second.isFailure() && FeedDown.isOrWraps(second.error(), down),
        acme.what + " answered " + first + " and " + globex.what + " answered " + second + ", where their first "
            + "callbacks said " + ACME + " and " + down + ".");
    int ignored = scene.ignoredCallbacks();
    require(ignored == 4, "ignoredCallbacks() is " + ignored + " after two fetches whose client called back three "
        + "times each; it should be 4 (two late callbacks per fetch). Count each callback that finds its fetch "
        + "already answered, not each fetch that had more than one, and keep one count for the whole service.");
    scene.assertNothingPending("two fetches called back three times each");
  }

  private static DynamicTest twice(Vertx vertx, String story, BiConsumer<FeedRequest, Integer> answer,
                                   Outcome<Object> expected) {
    return DynamicTest.dynamicTest(story, () -> {
      QuoteScene scene = new QuoteScene(vertx);
      Call<Quote> call = scene.call("fetch(\"main\", \"ACME\")", s -> s.fetch("main", "ACME"));
      FeedRequest request = scene.client.awaitRequest(1, call);
      answer.accept(request, 1);
      Outcome<Object> first = call.outcome("the client's first callback (" + story + ")");
      answer.accept(request, 2);
      scene.assertNothingThrownBack("the client called back twice (" + story + ")");
      require(first.equals(expected) && (expected.error() == null || FeedDown.isOrWraps(first.error(), expected.error())),
          call.what + " answered " + first + " where the first callback (" + story + ") said " + expected + ".");
      require(call.now() == first || call.now().equals(first), "The caller's answer changed from " + first + " to "
          + call.now() + " after the second callback.");
      int ignored = scene.ignoredCallbacks();
      require(ignored == 1, "ignoredCallbacks() is " + ignored + " after one fetch whose client called back twice ("
          + story + "); it should be 1. Count each callback that finds its fetch already answered, so the second "
          + "call is reported, not silently dropped or thrown.");
      scene.assertNothingPending("a fetch called back twice");
    });
  }

  @TestFactory
  @Order(5)
  @Points(3)
  @DisplayName("when the client calls back from a thread of its own, from another event loop or at once, the "
      + "caller's continuation still runs on the verticle's event loop")
  Stream<DynamicTest> aForeignThreadsCallbackComesBackToTheLoop(Vertx vertx) {
    return Stream.of(
        DynamicTest.dynamicTest("one quote from the client's thread", () -> foreign(vertx, Way.THREAD)),
        DynamicTest.dynamicTest("a quote, then an error, each from a thread of the client's", () -> foreign(vertx,
            Way.THREAD_TWICE)),
        DynamicTest.dynamicTest("a quote from another event loop (a client with Vert.x inside)", () -> foreign(vertx,
            Way.OTHER_LOOP)),
        DynamicTest.dynamicTest("a quote called back at once, inside requestQuote", () -> foreign(vertx,
            Way.AT_ONCE)));
  }

  /** How the client calls back in {@link #aForeignThreadsCallbackComesBackToTheLoop}. */
  private enum Way { THREAD, THREAD_TWICE, OTHER_LOOP, AT_ONCE }

  private static void foreign(Vertx vertx, Way way) {
    QuoteScene scene = new QuoteScene(vertx);
    String loop = scene.loopThread();
    String story;
    if (way == Way.AT_ONCE) {
      scene.client.answerAtOnce("ACME", ACME);
      story = "the client called onQuote(" + ACME + ") at once, inside requestQuote";
    } else if (way == Way.OTHER_LOOP) {
      story = "the client called onQuote(" + ACME + ") on another event loop";
    } else {
      story = "the client called onQuote(" + ACME + ") from its thread legacy-feed-1";
    }
    Call<Quote> call = scene.call("fetch(\"main\", \"ACME\")", s -> s.fetch("main", "ACME"));
    FeedRequest request = scene.client.awaitRequest(1, call);
    if (way == Way.THREAD || way == Way.THREAD_TWICE) {
      request.quoteFrom("legacy-feed-1", ACME);
    } else if (way == Way.OTHER_LOOP) {
      request.quoteOn(scene.anotherEventLoop(), ACME);
    }
    if (way == Way.THREAD_TWICE) {
      request.errorFrom("legacy-feed-2", new FeedDown("late retry failed"));
    }
    Outcome<Object> outcome = call.outcome(story);
    scene.assertNothingThrownBack(story);
    require(outcome.equals(Outcome.of(ACME)), call.what + " answered " + outcome + " after " + story + ".");
    require(VerticleContext.isSameContext(call.context(), scene.context), "The caller's continuation of "
        + call.what + " ran on the thread " + call.thread() + " (" + VerticleContext.describe(call.context(),
        scene.context) + "), not on the verticle's event loop " + loop + ", after " + story + ". A promise "
        + "completed on another thread or context runs its listeners there: everything the caller chains would "
        + "leave the verticle's context and touch its state from there. Hop back onto the verticle's own context "
        + "first: context.runOnContext(v -> promise.tryComplete(quote)), with the context the verticle was given "
        + "(vertx.runOnContext from the client's thread makes a new context instead)."
        + (way == Way.OTHER_LOOP ? " Being on an event loop is not being on the verticle's: this one was another." : ""));
    if (way == Way.THREAD_TWICE) {
      int ignored = scene.ignoredCallbacks();
      require(ignored == 1, "ignoredCallbacks() is " + ignored + " after a quote then an error, each from a thread "
          + "of the client's; it should be 1.");
    }
    scene.assertNothingPending("a fetch answered after " + story);
    if (way == Way.AT_ONCE) {
      List<String> timers = PendingTimers.of(vertx);
      require(timers.isEmpty(), call.what + " answered at once, inside requestQuote, and yet " + String.join(", ",
          timers) + (timers.size() == 1 ? " still waits" : " still wait") + " to fire (in "
          + QuoteScene.NEVER.toSeconds() + " s). No timer outlives its fetch: when the answer comes before "
          + "requestQuote returns, the fetch has ended before anything set after the request, and its clean-up "
          + "has already run.");
    }
  }
}
