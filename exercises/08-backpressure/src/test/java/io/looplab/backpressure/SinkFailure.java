package io.looplab.backpressure;

/** What the tests' sink fails an item with: a store that could not keep it. */
final class SinkFailure extends RuntimeException {

  SinkFailure(String message) {
    super(message, null, false, false);
  }
}
