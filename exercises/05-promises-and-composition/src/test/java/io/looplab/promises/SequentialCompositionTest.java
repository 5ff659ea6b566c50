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

  @TestFactory
  @Order(1)
  @Points(3)
  @DisplayName("priceIn asks the main feed first, then the fx feed for the rate from the quote's own currency, and "
      + "multiplies")
  Stream<DynamicTest> priceInAsksForTheRateOnceItKnowsTheCurrency(Vertx vertx) {
    return Stream.of(
        DynamicTest.dynamicTest("ACME quoted in CHF, priced in EUR", () -> priceIn(vertx, "EUR", IN_FRANCS, RATE,
            9.0)),
        DynamicTest.dynamicTest("GLOBEX quoted in USD, priced in GBP", () -> priceIn(vertx, "GBP",
            new Quote("GLOBEX", 20.0, "USD"), new Quote("USD/GBP", 0.8, "GBP"), 16.0)));
  }

  private static void priceIn(Vertx vertx, String currency, Quote quoted, Quote rated, double price) {
    QuoteScene scene = new QuoteScene(vertx);
    String symbol = quoted.symbol();
    Call<Double> call = scene.call("priceIn(\"" + symbol + "\", \"" + currency + "\")",
        s -> s.priceIn(new String(symbol), new String(currency)));
    FeedRequest quote = scene.client.awaitRequest(1, call);
    scene.flush();
    require(quote.toString().equals("main:" + symbol) && scene.client.requests() == 1, call.what + " asked for "
        + scene.client.requestedSoFar() + " before any answer. It must ask main:" + symbol + ", and nothing else "
        + "until that answers: which rate to ask for depends on the quote's currency.");
    quote.quote(quoted);
    FeedRequest rate = scene.client.awaitRequest(2, call);
    require(rate.toString().equals("fx:" + rated.symbol()), call.what + " asked " + rate + " (at " + rate.callSite
        + ") for the rate after the quote " + quoted + "; it should ask fx:" + rated.symbol() + ", from the quote's "
        + "currency to " + currency + ". Use the first answer in the second step: compose(quote -> fetch(FX_FEED, "
        + "quote.currency() + \"/\" + currency)).");
    rate.quote(rated);
    Outcome<Object> outcome = call.outcome("both feeds answered");
    require(!outcome.isFailure() && outcome.value() instanceof Double answer && Math.abs(answer - price) < 1e-9,
        call.what + " answered " + outcome + " for a quote of " + quoted.price() + " " + quoted.currency() + " at "
            + rated.price() + " " + currency + " per " + quoted.currency() + "; it should be " + price + ".");
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
    Quote[] answers = {CallbackAdapterTest.ACME, CallbackAdapterTest.ACME_AGAIN};
    String[] which = {"quoteOrLastKnown(\"ACME\")", "a second quoteOrLastKnown(\"ACME\")"};
    for (int i = 0; i < 2; i++) {
      Call<Quote> ok = scene.call(which[i], s -> s.quoteOrLastKnown(new String("ACME")));
      scene.client.awaitRequest(i + 1, ok).quote(answers[i]);
      require(ok.outcome("the feed answered").equals(Outcome.of(answers[i])), ok.what + " answered " + ok.now()
          + " where the feed answered " + answers[i] + ".");
    }
    Call<Quote> third = scene.call("a third quoteOrLastKnown(\"ACME\")", s -> s.quoteOrLastKnown(new String("ACME")));
    scene.client.awaitRequest(3, third).error(new FeedDown("main feed down"));
    Outcome<Object> outcome = third.outcome("the feed failed");
    require(outcome.equals(Outcome.of(CallbackAdapterTest.ACME_AGAIN)), third.what + " answered " + outcome
        + " when the feed failed, after answering " + answers[0] + " then " + answers[1] + "; it should fall back "
        + "to the last quote it answered, " + CallbackAdapterTest.ACME_AGAIN + ". Keep the newest quote (put, "
        + "replacing the one before), and recover from the failure with it.");
  }

  @TestFactory
  @Order(4)
  @Points(3)
  @DisplayName("quoteOrLastKnown with no earlier quote for that symbol fails with the feed's own error, never a "
      + "made-up default")
  Stream<DynamicTest> quoteOrLastKnownWithNothingKnownFails(Vertx vertx) {
    return Stream.of(DynamicTest.dynamicTest("nothing known at all", () -> {
      QuoteScene scene = new QuoteScene(vertx);
      Call<Quote> call = scene.call("quoteOrLastKnown(\"ACME\")", s -> s.quoteOrLastKnown("ACME"));
      FeedDown down = new FeedDown("main feed down");
      scene.client.awaitRequest(1, call).error(down);
      requireFailedWith(call, call.outcome("the feed failed with " + down), down);
    }), DynamicTest.dynamicTest("a quote known for ACME only, and GLOBEX fails", () -> {
      QuoteScene scene = new QuoteScene(vertx);
      Call<Quote> acme = scene.call("quoteOrLastKnown(\"ACME\")", s -> s.quoteOrLastKnown("ACME"));
      scene.client.awaitRequest(1, acme).quote(CallbackAdapterTest.ACME);
      acme.outcome("the feed answered " + CallbackAdapterTest.ACME);
      Call<Quote> call = scene.call("quoteOrLastKnown(\"GLOBEX\")", s -> s.quoteOrLastKnown("GLOBEX"));
      FeedDown down = new FeedDown("GLOBEX unavailable");
      scene.client.awaitRequest(2, call).error(down);
      Outcome<Object> outcome = call.outcome("the feed failed with " + down);
      require(outcome.isFailure(), call.what + " answered " + outcome + " when the feed failed with " + down
          + ", and no quote had ever been answered for that symbol (only " + CallbackAdapterTest.ACME + " for ACME). "
          + "The last known quote is the last one of the same symbol: keep one per symbol, and with none for this "
          + "one, pass the feed's error on.");
      requireFailedWith(call, outcome, down);
    }));
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
