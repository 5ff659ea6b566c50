package io.looplab.perkey;

import io.vertx.core.Future;

/**
 * The payment provider: before a seat counts as sold, it must authorise the charge for that seat. It answers after
 * a network round trip of its own, so this is the slow, asynchronous step in the middle of every booking.
 *
 * <p>Like many real clients it can go wrong in two ways: the future it returns fails (card declined, provider
 * down), or it throws before it returns any future at all (a client that is not configured, say). A caller must
 * cope with both. This is a library you use, not code you change: the tests bring their own provider.
 */
@FunctionalInterface
public interface PaymentService {

  /** Authorises the charge for seat number {@code seat} of {@code eventId}; succeeds once the money is reserved. */
  Future<Void> authorize(String eventId, int seat);
}
