package io.looplab.virtualthreads;

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
    // TODO: correct, and twice as slow as it needs to be. Awaits in sequence stay sequential: the loyalty lookup is
    //  not even asked until the price has come back. Start both lookups first, then wait for both (Future.all(...)
    //  and one await, or one await per future once both are started).
    int base = prices.basePrice().await();
    int discount = loyalty.discountPercent(who).await();
    return base * (100 - discount) / 100;
  }
}
