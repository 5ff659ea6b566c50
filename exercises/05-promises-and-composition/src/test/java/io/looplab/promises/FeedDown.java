package io.looplab.promises;

/** The error the test's feeds fail with; each one is a new object, so a test can tell whose error reached it. */
final class FeedDown extends RuntimeException {

  FeedDown(String message) {
    super(message, null, false, false);
  }

  /** Whether {@code error}, or one of its causes, is {@code expected} itself. */
  static boolean isOrWraps(Throwable error, Throwable expected) {
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t == expected) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether {@code error} carries {@code expected}: is it, wraps it as a cause, or keeps it as a suppressed exception
   * (an error of one's own that gathers several).
   */
  static boolean carries(Throwable error, Throwable expected) {
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t == expected) {
        return true;
      }
      for (Throwable suppressed : t.getSuppressed()) {
        if (suppressed != t && carries(suppressed, expected)) {
          return true;
        }
      }
    }
    return false;
  }
}
