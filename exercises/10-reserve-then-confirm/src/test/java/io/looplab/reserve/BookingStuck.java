package io.looplab.reserve;

import org.opentest4j.AssertionFailedError;

/** A booking that never reached the payment service while another customer's payment was pending. */
final class BookingStuck extends AssertionFailedError {
  BookingStuck(String message) {
    super(message);
  }
}
