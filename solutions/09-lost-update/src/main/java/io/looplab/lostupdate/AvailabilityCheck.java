package io.looplab.lostupdate;

import io.vertx.core.Future;

/**
 * The box office's external booking service: asked once per reservation whether {@code who} may have a seat.
 *
 * <p>It is asynchronous: the answer arrives later, on the event loop of the caller. It answers {@code true} (go
 * ahead), {@code false} (this person may not book, say because they already hold a ticket), or fails when the
 * service itself is in trouble.
 */
public interface AvailabilityCheck {

  Future<Boolean> check(String who);
}
