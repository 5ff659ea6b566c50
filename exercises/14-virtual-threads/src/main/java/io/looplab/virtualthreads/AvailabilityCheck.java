package io.looplab.virtualthreads;

import io.vertx.core.Future;

/**
 * The box office's external booking service: asked once per reservation whether {@code who} may have a seat.
 *
 * <p>It is asynchronous: the answer arrives later. It answers {@code true} (go ahead), {@code false} (this person may
 * not book), or fails when the service itself is in trouble. On a virtual thread, {@code check(who).await()} waits for
 * the answer in one line.
 */
public interface AvailabilityCheck {

  Future<Boolean> check(String who);
}
