package io.looplab.downstream;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;

/**
 * The slow consumer behind the ingest endpoint, given to you as a library: you call it, you do not change it.
 *
 * <p>{@link #process} stores one item and answers when it is done, which can take a long time. It copes with a few
 * items at once, not with thousands: calling it for every request that arrives, however many, is what the
 * exercise is about not doing. Call it on the verticle's event loop; its future completes there too.
 */
public interface ItemSink {

  /**
   * Stores {@code item}. The future succeeds when the item is stored, or fails when the sink could not store it;
   * either way the sink is done with that item. The future may be complete already when this method returns (a sink
   * that stores or refuses at once), and this method may throw instead of returning a future (a sink that is not
   * connected): then too the sink is done with the item.
   */
  Future<Void> process(Buffer item);
}
