package io.looplab.downstream;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.streams.WriteStream;

/**
 * Where big batches are kept, given to you as a library: you call it, you do not change it.
 *
 * <p>{@link #open} gives a stream for one batch. The archive writes slowly, and its stream has a small write queue:
 * {@link WriteStream#writeQueueFull()} says when it holds as much as it should, and the
 * {@link WriteStream#drainHandler drain handler} is called once it has room again. Write the batch's bytes in order,
 * then {@link WriteStream#end() end} the stream once. Use the stream on the verticle's event loop.
 */
public interface Archive {

  /** A stream that stores the batch {@code name}. */
  WriteStream<Buffer> open(String name);
}
