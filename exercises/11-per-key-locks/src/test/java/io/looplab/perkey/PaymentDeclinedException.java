package io.looplab.perkey;

/** A payment refusal from the fake provider. */
final class PaymentDeclinedException extends RuntimeException {
  PaymentDeclinedException(String message) {
    super(message);
  }
}
