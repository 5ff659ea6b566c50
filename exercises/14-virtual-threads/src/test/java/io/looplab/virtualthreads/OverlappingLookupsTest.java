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
@Order(4)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@DisplayName("14 Virtual threads: two independent lookups, awaited together")
class OverlappingLookupsTest {

  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(SceneWarmUp::steps);
  }

  @Test
  @Order(6)
  @Points(2)
  @DisplayName("a quote is the base price less the loyalty discount, whichever lookup answers first, and a failed "
      + "lookup fails the quote with its error")
  void quoteCombinesBothLookups() {
    for (boolean priceFirst : List.of(true, false)) {
      String order = priceFirst ? "the price answered first" : "the discount answered first";
      try (QuoteDesk desk = new QuoteDesk()) {
        desk.quote("ada");
        desk.driveToTheEnd(priceFirst, null, null);
        require(desk.outcome().equals(Outcome.of(QUOTE)), "ada's quote should be " + QUOTE + " (a base price of "
            + QuoteDesk.BASE_PRICE + " less her " + QuoteDesk.DISCOUNT + "% discount, with " + order + "), but it "
            + "answered " + desk.outcome() + desk.callSites() + ".");
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
  @Order(7)
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
