package io.looplab.virtualthreads;

/** The error the test's remote services fail with (or throw), when a test makes them fail. */
final class AvailabilityServiceDown extends RuntimeException {

  /** Why a check fails, when a test makes its future fail. */
  static final String OUTAGE = "the availability service timed out";

  /** What the test's availability client throws, when a test makes it throw instead of failing its future. */
  static final String CLIENT_CLOSED = "the availability client is closed";

  AvailabilityServiceDown(String message) {
    super(message, null, false, false);
  }

  /** True when {@code error}, or one of its causes, says {@code words}: the service's own error, passed on. */
  static boolean causedBy(Throwable error, String words) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (String.valueOf(t.getMessage()).contains(words)) {
        return true;
      }
    }
    return false;
  }
}
