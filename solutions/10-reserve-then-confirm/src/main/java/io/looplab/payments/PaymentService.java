package io.looplab.payments;

import io.vertx.core.Future;

/**
 * The payment provider's client, a library you use and do not change. A charge is slow: the customer types a card
 * number, a bank says yes or no, and that takes seconds. The returned future completes on the caller's context, as
 * every Vert.x client's does.
 */
public interface PaymentService {

  /**
   * Charges {@code customer} for one seat. Succeeds when the payment is approved; fails with a
   * {@link PaymentDeclinedException} that says why when it is declined.
   */
  Future<Void> charge(String customer);
}
