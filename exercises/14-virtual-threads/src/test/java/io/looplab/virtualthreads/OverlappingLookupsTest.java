package io.looplab.virtualthreads;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Outcome;
import io.looplab.grader.Points;
import io.looplab.grader.sync.Gate;
import io.looplab.grader.testkit.WarmUp;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.looplab.grader.testkit.Checks.require;
import static io.looplab.virtualthreads.QuoteDesk.QUOTE;

/**
 * Grades TicketQuotes: the quote combines both lookups, passes a failed lookup on, and asks for both at once. The
 * price list and the loyalty programme are gated ({@link QuoteDesk}): a lookup answers only when the test answers it,
 * so "both lookups were in flight together" is checked by counting the calls that arrived before any answer, never by
 * timing.
 */
@GradedVertxTest
@Order(5)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@DisplayName("14 Virtual threads: two independent lookups, awaited together")
class OverlappingLookupsTest {

  /** bob's quote: 1001 * 85 / 100 = 850.85, which the promised formula's int division makes 850. */
  private static final int BOB_BASE = 1_001;
  private static final int BOB_DISCOUNT = 15;
  private static final int BOB_QUOTE = 850;

  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(SceneWarmUp::steps);
  }

  @Test
  @Order(7)
  @Points(2)
  @DisplayName("a quote is the base price less the customer's own loyalty discount, rounded down to the cent, "
      + "whichever lookup answers first, and a failed lookup fails the quote with its error")
  void quoteCombinesBothLookups() {
    for (boolean priceFirst : List.of(true, false)) {
      String order = priceFirst ? "the price answered first" : "the discount answered first";
      try (QuoteDesk desk = new QuoteDesk()) {
        desk.quote("ada");
        desk.driveToTheEnd(priceFirst, null, null);
        require(desk.outcome().equals(Outcome.of(QUOTE)), "ada's quote should be " + QUOTE + " (a base price of "
            + QuoteDesk.BASE_PRICE + " less her " + QuoteDesk.DISCOUNT + "% discount, with " + order + "), but it "
            + "answered " + desk.outcome() + desk.callSites() + ".");
        // The same TicketQuotes, a second customer, a new price: each quote asks for its own customer's discount, and
        // 1001 less 15% is 850.85 cents, where base * (100 - discount) / 100 drops the fraction: 850.
        desk.quote("bob");
        desk.driveToTheEnd(priceFirst, BOB_BASE, BOB_DISCOUNT, null, null);
        List<String> asked = desk.discountsAskedFor();
        require(asked.contains("bob"), "bob's quote, the second of the same TicketQuotes after ada's, never asked "
            + "Loyalty.discountPercent about bob: the discount was asked for " + asked + " only, and bob's quote "
            + "answered " + desk.outcome() + " (ada's " + QuoteDesk.DISCOUNT + "% discount would make it "
            + BOB_BASE * (100 - QuoteDesk.DISCOUNT) / 100 + ")" + desk.callSites() + ". The discount is each "
            + "customer's own: ask for it with the customer of this quote, every time, and keep no one customer's "
            + "answer in a field.");
        require(desk.outcome().equals(Outcome.of(BOB_QUOTE)), "bob's quote should be " + BOB_QUOTE + " (a base "
            + "price of " + BOB_BASE + " less his " + BOB_DISCOUNT + "% discount: " + BOB_BASE + " * (100 - "
            + BOB_DISCOUNT + ") / 100 in whole cents, the fraction dropped, with " + order + "), but it answered "
            + desk.outcome() + desk.callSites() + ". The Javadoc's formula, base * (100 - discount) / 100 in int "
            + "arithmetic, rounds the price down; base - base * discount / 100 rounds the discount down instead, and "
            + "the price one cent up whenever the discount is not a whole number of cents.");
      }
      for (String failing : List.of("price", "discount")) {
        try (QuoteDesk desk = new QuoteDesk()) {
          AvailabilityServiceDown error = new AvailabilityServiceDown("the " + failing + " lookup timed out");
          desk.quote("bob");
          desk.driveToTheEnd(priceFirst, failing, error);
          Outcome<Integer> bob = desk.outcome();
          require(bob.error() != null && AvailabilityServiceDown.causedBy(bob.error(), error.getMessage()),
              "The " + failing + " lookup failed (" + error.getMessage() + "), so bob's quote should throw that "
              + "error, but it answered " + bob + " (" + order + ")" + desk.callSites() + ". A price made up "
              + "without the " + failing + " would be wrong: let the failure that await() throws reach the caller.");
        }
      }
    }
  }

  @Test
  @Order(8)
  @Points(4)
  @DisplayName("the price and the discount are looked up at the same time: both lookups are in flight before either "
      + "answers")
  void lookupsRunAtTheSameTime() {
    try (QuoteDesk desk = new QuoteDesk()) {
      desk.quote("ada");
      // The context has run everything it can: the quote is suspended, waiting. Whatever it has not asked for yet, it
      // will not ask for until an answer comes.
      List<Gate<Integer>> inFlight = desk.inFlight();
      boolean price = desk.prices.calls() > 0;
      boolean discount = desk.discounts.calls() > 0;
      require(price || discount, "ada's quote asked for neither the price nor the discount, and answered "
          + desk.outcome() + ". A quote must ask PriceList.basePrice() and Loyalty.discountPercent(who).");
      require(price && discount, "Sequential awaits: ada's quote asked for the " + (price ? "price" : "discount")
          + " and is now suspended, waiting for it, without having asked for the " + (price ? "discount" : "price")
          + " (" + inFlight.size() + " lookup in flight, and nothing more happens until it answers)" + desk.callSites()
          + ". Awaits in sequence stay sequential: a.await() then b.await() does not even ask for b until a has "
          + "answered, so the quote takes the time of both lookups added up, though neither needs the other's answer. "
          + "Start both lookups first, then wait for both: Future.all(price, discount).await(), or two awaits once "
          + "both futures exist.");
      desk.release(inFlight.stream().map(g -> g.opening(desk.isPrice(g) ? QuoteDesk.BASE_PRICE : QuoteDesk.DISCOUNT))
          .toList());
      require(desk.outcome().equals(Outcome.of(QUOTE)), "Both lookups were answered at once, so ada's quote should be "
          + QUOTE + ", but it answered " + desk.outcome() + desk.callSites() + ".");
    }
  }
}
