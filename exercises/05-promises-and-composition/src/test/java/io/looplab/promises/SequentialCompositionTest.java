package io.looplab.promises;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Outcome;
import io.looplab.grader.Points;
import io.looplab.grader.guard.GivenCode;
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

import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static io.looplab.grader.testkit.Checks.require;

/**
 * Grades the compositions that run one step after another: priceIn, whose second question needs the first answer,
 * and quoteOrLastKnown, whose fallback must recover only what it can. Each failure must arrive as the failure it
 * was, never as a default value.
 */
@GradedVertxTest
@GivenCode(value = LegacyQuoteClient.class, is = "the legacy quote client's callback API")
@Order(3)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@DisplayName("05 Promises: one step after another, and a fallback that loses no error")
class SequentialCompositionTest {

  static final Quote IN_FRANCS = new Quote("ACME", 10.0, "CHF");
  static final Quote RATE = new Quote("CHF/EUR", 0.9, "EUR");

  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(SceneWarmUp::steps);
  }

  @Test
  @Order(1)
  @Points(3)
  @DisplayName("priceIn(ACME, EUR) asks the main feed first, then the fx feed for the rate from the quote's own "
      + "currency, and multiplies")
  void priceInAsksForTheRateOnceItKnowsTheCurrency(Vertx vertx) {
    QuoteScene scene = new QuoteScene(vertx);
    Call<Double> call = scene.call("priceIn(\"ACME\", \"EUR\")", s -> s.priceIn("ACME", "EUR"));
    FeedRequest quote = scene.client.awaitRequest(1, call);
    scene.flush();
    require(quote.toString().equals("main:ACME") && scene.client.requests() == 1, call.what + " asked for "
        + scene.client.requestedSoFar() + " before any answer. It must ask main:ACME, and nothing else until that "
        + "answers: which rate to ask for depends on the quote's currency.");
    quote.quote(IN_FRANCS);
    FeedRequest rate = scene.client.awaitRequest(2, call);
    require(rate.toString().equals("fx:CHF/EUR"), call.what + " asked " + rate + " (at " + rate.callSite
        + ") for the rate after the quote " + IN_FRANCS + "; it should ask fx:CHF/EUR, from the quote's currency to "
        + "EUR. Use the first answer in the second step: compose(quote -> fetch(FX_FEED, quote.currency() + \"/\" + "
        + "currency)).");
    rate.quote(RATE);
    Outcome<Object> outcome = call.outcome("both feeds answered");
    require(!outcome.isFailure() && outcome.value() instanceof Double price && Math.abs(price - 9.0) < 1e-9,
        call.what + " answered " + outcome + " for a quote of 10.0 CHF at 0.9 EUR per CHF; it should be 9.0.");
    scene.assertNothingPending(call.what);
  }

  @TestFactory
  @Order(2)
  @Points(3)
  @DisplayName("priceIn fails with the very error of the step that failed, and asks no rate after a failed quote")
  Stream<DynamicTest> priceInFailsWithTheFailedStepsError(Vertx vertx) {
    return Stream.of(DynamicTest.dynamicTest("the quote fails", () -> {
      QuoteScene scene = new QuoteScene(vertx);
      Call<Double> call = scene.call("priceIn(\"ACME\", \"EUR\")", s -> s.priceIn("ACME", "EUR"));
      FeedDown down = new FeedDown("main feed down");
      scene.client.awaitRequest(1, call).error(down);
      Outcome<Object> outcome = call.outcome("the main feed failed with " + down);
      scene.flush();
      require(scene.client.requests() == 1, call.what + " went on to ask " + scene.client.requestedSoFar()
          + " after the quote had failed. A failed step must skip the rest: compose runs its function on success "
          + "only.");
      requireFailedWith(call, outcome, down);
    }), DynamicTest.dynamicTest("the rate fails", () -> {
      QuoteScene scene = new QuoteScene(vertx);
      Call<Double> call = scene.call("priceIn(\"ACME\", \"EUR\")", s -> s.priceIn("ACME", "EUR"));
      scene.client.awaitRequest(1, call).quote(IN_FRANCS);
      FeedDown down = new FeedDown("fx feed down");
      scene.client.awaitRequest(2, call).error(down);
      requireFailedWith(call, call.outcome("the fx feed failed with " + down), down);
      scene.assertNothingPending(call.what);
    }));
  }

  @Test
  @Order(3)
  @Points(2)
  @DisplayName("quoteOrLastKnown answers the last quote it gave when the main feed fails")
  void quoteOrLastKnownFallsBackToTheLastQuote(Vertx vertx) {
    QuoteScene scene = new QuoteScene(vertx);
    Call<Quote> first = scene.call("quoteOrLastKnown(\"ACME\")", s -> s.quoteOrLastKnown("ACME"));
    scene.client.awaitRequest(1, first).quote(CallbackAdapterTest.ACME);
    require(first.outcome("the feed answered").equals(Outcome.of(CallbackAdapterTest.ACME)), first.what
        + " answered " + first.now() + " where the feed answered " + CallbackAdapterTest.ACME + ".");
    Call<Quote> second = scene.call("a second quoteOrLastKnown(\"ACME\")", s -> s.quoteOrLastKnown("ACME"));
    scene.client.awaitRequest(2, second).error(new FeedDown("main feed down"));
    Outcome<Object> outcome = second.outcome("the feed failed");
    require(outcome.equals(Outcome.of(CallbackAdapterTest.ACME)), second.what + " answered " + outcome + " when "
        + "the feed failed; it should fall back to the last quote it answered, " + CallbackAdapterTest.ACME
        + ". recover from the failure with that quote.");
  }

  @Test
  @Order(4)
  @Points(3)
  @DisplayName("quoteOrLastKnown with no earlier quote fails with the feed's own error, never a made-up default")
  void quoteOrLastKnownWithNothingKnownFails(Vertx vertx) {
    QuoteScene scene = new QuoteScene(vertx);
    Call<Quote> call = scene.call("quoteOrLastKnown(\"ACME\")", s -> s.quoteOrLastKnown("ACME"));
    FeedDown down = new FeedDown("main feed down");
    scene.client.awaitRequest(1, call).error(down);
    requireFailedWith(call, call.outcome("the feed failed with " + down), down);
  }

  private static void requireFailedWith(Call<?> call, Outcome<Object> outcome, FeedDown down) {
    require(outcome.isFailure(), call.what + " answered " + outcome + " after a feed failed with " + down + ". "
        + "That is a silent success: the caller takes it for real. Let the failure through (compose and map skip "
        + "failures), and recover only when you have a real answer to give instead, passing the error on otherwise: "
        + "recover(e -> known != null ? succeededFuture(known) : failedFuture(e)).");
    require(FeedDown.isOrWraps(outcome.error(), down), call.what + " failed with " + outcome.error() + ", not with "
        + "the feed's error " + down + ". Pass the error on unchanged (or as the cause of yours).");
  }
}
