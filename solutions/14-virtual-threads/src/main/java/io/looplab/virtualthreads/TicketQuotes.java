package io.looplab.virtualthreads;

import io.vertx.core.Future;

/**
 * What one ticket costs one customer: the show's base price, less the customer's loyalty discount. Both come from
 * remote services that know nothing of each other, so neither has to wait for the other.
 */
public class TicketQuotes {

  private final PriceList prices;
  private final Loyalty loyalty;

  public TicketQuotes(PriceList prices, Loyalty loyalty) {
    this.prices = prices;
    this.loyalty = loyalty;
  }

  /**
   * The price of one ticket for {@code who}, in euro cents: {@code base * (100 - discount) / 100}. It waits with
   * {@code Future.await()}, so it must run on a virtual thread.
   *
   * @throws RuntimeException the error of either lookup, when it fails
   */
  public int quote(String who) {
    // FIX: awaits in sequence stay sequential: prices.basePrice().await() then loyalty.discountPercent(who).await()
    // would not even ask for the discount until the price had come back. Calling a method that returns a Future
    // starts the lookup; await() only waits for it. So both lookups are started first, and then awaited together.
    Future<Integer> price = prices.basePrice();
    Future<Integer> loyaltyDiscount = loyalty.discountPercent(who);
    // Future.all fails as soon as either fails, and await() then throws that lookup's error.
    Future.all(price, loyaltyDiscount).await();
    int base = price.result();
    int discount = loyaltyDiscount.result();
    return base * (100 - discount) / 100;
  }
}
