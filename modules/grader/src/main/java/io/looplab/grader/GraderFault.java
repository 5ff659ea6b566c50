package io.looplab.grader;

import java.util.Optional;

/**
 * Thrown by a graded test's own machinery (a fixture that did not start in time, a warm-up that failed) when it
 * cannot judge the code under test: a failure of the grader or of the machine, never of the learner. The report
 * says "Not graded" with the reason and status error, loses no points for it, and the kit grades the exercise again.
 * Never throw it for anything the learner's code did or failed to do.
 */
public final class GraderFault extends RuntimeException {

  public GraderFault(String reason, Throwable cause) {
    super(reason, cause);
  }

  public GraderFault(String reason) {
    super(reason);
  }

  /** The grader fault in {@code failure}'s chain of causes, if any. */
  public static Optional<GraderFault> in(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof GraderFault fault) {
        return Optional.of(fault);
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return Optional.empty();
  }
}
