package io.looplab.blocking;

import io.vertx.core.Future;

/**
 * An asynchronous rating service: {@link #ratingOf} returns a future at once, and completes it later, when the
 * answer arrives, on the caller's own context. Nothing is known about how long "later" is.
 */
public interface RatingService {

  /** The analysts' rating of {@code symbol}, such as "AA". */
  Future<String> ratingOf(String symbol);
}
