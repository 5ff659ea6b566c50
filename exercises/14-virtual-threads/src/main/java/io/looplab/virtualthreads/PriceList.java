package io.looplab.virtualthreads;

import io.vertx.core.Future;

/** The show's price list, a remote service: the full price of one ticket, in euro cents. */
public interface PriceList {

  Future<Integer> basePrice();
}
