package io.looplab.background;

import io.vertx.core.Future;

/**
 * The upstream the job refreshes from: one exchange rate per call, answered later. Given code: do not change it.
 *
 * <p>Like any remote client it can fail, in two ways: its future fails (the upstream answered with an error), or the
 * call itself throws before returning a future (a client whose connection is closed does that). It can also take
 * longer than anyone wants to wait, or never answer at all.
 */
public interface RatesFeed {

  /** The rate of {@code currency} against the euro, as the upstream has it now. */
  Future<Double> rate(String currency);
}
