package io.looplab.grader.internal.guard;

import io.vertx.core.impl.VertxThread;

import java.util.List;
import java.util.Optional;

/**
 * Ends the waits of one test or lifecycle method once an event loop is stuck ({@link StuckLoops}), by interrupting
 * the test's thread: the one thing that ends every wait a test makes (an {@code Await}, a latch, a {@code Signal},
 * vertx-junit5's own). Only a test that has a violation already is interrupted, so the interrupt changes how long it
 * takes to fail, never whether it fails, nor its message: the guard's error comes first. Closing it clears the
 * interrupt it made, so that the next method starts with a thread that is not interrupted.
 */
final class StuckTestInterrupter implements AutoCloseable {

  private final Thread test;
  private final ViolationLog log;
  private final int mark;
  private boolean open = true;
  private Violation stall;

  /** For the method about to run on {@code test}; {@code mark} is {@code log}'s position at its start. */
  StuckTestInterrupter(Thread test, ViolationLog log, int mark) {
    this.test = test;
    this.log = log;
    this.mark = mark;
  }

  /** The stall detector's word, on its own thread: {@code loop} is stuck. */
  synchronized void loopStuck(VertxThread loop) {
    if (!open || stall != null) {
      return;
    }
    List<Violation> seen = log.since(mark);
    if (seen.isEmpty()) {
      return; // a test with no violation may still pass: it is left to end on its own
    }
    stall = seen.stream().filter(EventLoopGuard::isStall).findFirst().orElse(seen.get(0));
    test.interrupt();
  }

  /** The violation of the test when a stuck loop ended its waits, or empty when it did not. */
  synchronized Optional<Violation> endedBy() {
    return Optional.ofNullable(stall);
  }

  /** On the test's thread, when the method is over: no interrupt of this method reaches the next. */
  @Override
  public synchronized void close() {
    open = false;
    if (stall != null) {
      Thread.interrupted();
    }
  }
}
