package io.looplab.beyond;

import io.vertx.core.Future;

/** An outside service that says whether {@code who} may book at all (a fraud check, say). It answers later. */
public interface AvailabilityCheck {

  /** Succeeds with {@code true} (may book) or {@code false} (may not); fails when the service itself fails. */
  Future<Boolean> check(String who);
}
