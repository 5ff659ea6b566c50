package io.looplab.virtualthreads;

import io.vertx.core.Future;

/** The loyalty programme, a remote service: the discount, in percent (0 to 100), that {@code who} gets. */
public interface Loyalty {

  Future<Integer> discountPercent(String who);
}
