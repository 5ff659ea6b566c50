package io.looplab.grader.sync;

import java.util.Optional;

/**
 * Where an exception that a fake throws on purpose went up through the learner's code. A fake that throws instead of
 * returning a future (a client that is not connected) tests the path that a {@code finally} would cover in
 * blocking code; when that path then leaks a lock or a connection, a message can name the learner's lines the
 * throw crossed, although the throw itself came from the test's fake.
 */
public final class ThrownThrough {

  private volatile Optional<String> path = Optional.empty();

  /** Call where the fake throws: {@code throw thrown.record(error);}. Records the learner's lines on this stack. */
  public <E extends RuntimeException> E record(E error) {
    path = CallSite.pathOf(new Throwable().getStackTrace());
    return error;
  }

  /**
   * For a message: {@code " (the exception went up through book() at SeatBookings.java:83)"}, or "" when nothing
   * was thrown yet or no line of the learner's was on the stack.
   */
  public String inWords() {
    return path.map(p -> " (the exception went up through " + p + ")").orElse("");
  }
}
