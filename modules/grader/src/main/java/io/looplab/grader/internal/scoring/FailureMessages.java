package io.looplab.grader.internal.scoring;

import io.looplab.grader.internal.guard.CodeUnderTest;
import io.looplab.grader.internal.guard.LearnersFrame;
import io.looplab.grader.internal.guard.PendingNote;
import io.looplab.grader.internal.guard.ViolationError;

import java.util.concurrent.TimeoutException;

/**
 * Turns a test's failure into a report line: a status and a message that points at a line. It never cuts a message:
 * that has one rule, {@link io.looplab.report.MessageLimit#capped}, which says how much it cut.
 */
final class FailureMessages {

  private FailureMessages() {
  }

  static String status(Throwable failure) {
    if (isTimeout(failure)) {
      return "timeout";
    }
    return failure instanceof AssertionError ? "failed" : "error";
  }

  private static boolean isTimeout(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof TimeoutException) {
        return true;
      }
    }
    return false;
  }

  static String describe(Throwable failure, String testClassName) {
    ViolationError violation = violationIn(failure, 0);
    if (violation != null) {
      // The guard's finding is the cause of whatever followed, even when JUnit's time limit ended the test first
      // and reported its own TimeoutException, with the guard's error attached as a suppressed exception.
      return violation.getMessage();
    }
    String text = failure.getMessage() == null || failure.getMessage().isBlank()
        ? failure.getClass().getSimpleName() : failure.getMessage();
    if (isTimeout(failure) && text.contains("VertxTestContext")) {
      text = "No result within the test's time limit: a request was never answered or a future never completed. "
          + "Check that every path completes its promise or ends the response.";
    } else if (!(failure instanceof AssertionError)) {
      text = failure.getClass().getSimpleName() + ": " + text;
    }
    return text + PendingNote.in(failure) + location(failure, testClassName);
  }

  /** A ViolationError that is {@code failure}, or one of its causes or suppressed exceptions, or null. */
  private static ViolationError violationIn(Throwable failure, int depth) {
    if (failure == null || depth > 8) {
      return null;
    }
    if (failure instanceof ViolationError violation) {
      return violation;
    }
    for (Throwable suppressed : failure.getSuppressed()) {
      ViolationError found = violationIn(suppressed, depth + 1);
      if (found != null) {
        return found;
      }
    }
    return failure.getCause() == failure ? null : violationIn(failure.getCause(), depth + 1);
  }

  /** The learner's line if their code threw, otherwise the line of the test that checked. */
  private static String location(Throwable failure, String testClassName) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      for (StackTraceElement frame : t.getStackTrace()) {
        if (CodeUnderTest.isLearnersClass(frame.getClassName())) {
          return " (at " + LearnersFrame.line(frame) + ")";
        }
      }
    }
    // The outermost frame of the test class: the line of the test itself, not of the helper that asserted for it.
    StackTraceElement checked = null;
    for (StackTraceElement frame : failure.getStackTrace()) {
      if (frame.getClassName().startsWith(testClassName)) {
        checked = frame;
      }
    }
    return checked == null ? "" : " (checked at " + LearnersFrame.line(checked) + ")";
  }

}
