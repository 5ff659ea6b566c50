package io.looplab.background;

/**
 * What the job has done so far, for whoever watches it (a health endpoint, a metric, a test). Given code: do not
 * change it.
 *
 * @param started     runs started so far
 * @param succeeded   runs that finished and published their rates
 * @param failed      runs that ended in an error: a failed or throwing feed, or a deadline passed
 * @param lastFailure the error of the most recent failed run; null while none has failed
 */
public record JobStatus(long started, long succeeded, long failed, Throwable lastFailure) {

  /** Runs started and not finished yet. */
  public long inFlight() {
    return started - succeeded - failed;
  }
}
