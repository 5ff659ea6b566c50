package io.looplab.payments;

/** The payment provider said no: the card was declined, the customer gave up, the bank timed out. */
public class PaymentDeclinedException extends RuntimeException {

  public PaymentDeclinedException(String reason) {
    super(reason);
  }
}
