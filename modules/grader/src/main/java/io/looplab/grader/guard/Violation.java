package io.looplab.grader.guard;

/**
 * Something the guard saw that breaks the event-loop contract, described for a learner: what happened, where, on
 * which thread, and why it matters.
 *
 * @param kind   what sort of mistake it is
 * @param thread the name of the thread it happened on
 * @param what   the blocking call, the stall's length, or the exception
 * @param where  the first frame of the code under test, as {@code File.java:line}, or {@code null} if none
 */
public record Violation(Kind kind, String thread, String what, String where) {

  public enum Kind {
    BLOCKING_CALL("Blocking call on the event loop",
        "An event loop serves every request with one thread; while it waits, everything else waits too. "
            + "Use a non-blocking API (vertx.timer, the Vert.x file system, an async client), or move the call "
            + "off the loop with executeBlocking or a worker executor."),
    STALL("Event loop stalled",
        "Long CPU work on the event loop delays every other handler, timer and request on that loop. "
            + "Move the computation to executeBlocking or a worker executor, and keep the loop for quick steps."),
    UNHANDLED_EXCEPTION("Exception nobody handled",
        "An exception escaped to Vert.x, so whoever waits for the result never hears about the failure. "
            + "Catch it and fail the promise or the future, or answer the request with an error.");

    private final String title;
    private final String why;

    Kind(String title, String why) {
      this.title = title;
      this.why = why;
    }

    public String title() {
      return title;
    }

    public String why() {
      return why;
    }
  }

  /** One line for a scoreboard, then the reason. */
  public String message() {
    String at = where == null ? "" : " at " + where;
    return kind.title + ": " + what + at + " (thread " + thread + "). " + kind.why;
  }

  @Override
  public String toString() {
    return message();
  }
}
