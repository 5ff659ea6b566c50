package io.looplab.grader.internal.guard;

/**
 * Something the guard saw that breaks the event-loop contract, described for a learner: what happened, where, on
 * which thread, and why it matters.
 *
 * @param kind   what sort of mistake it is
 * @param thread the name of the thread it happened on
 * @param what   the blocking call, the stall's length, or the exception
 * @param where  the learner's frame, as {@code File.java:line}, or {@code null} if none
 * @param call   when it happened inside code the learner did not write, the learner's call into it, as in
 *               "LegacyAccounts.ownerOf (a synchronous client), called from account()"; otherwise {@code null}
 */
public record Violation(Kind kind, String thread, String what, String where, String call) {

  public Violation(Kind kind, String thread, String what, String where) {
    this(kind, thread, what, where, null);
  }

  public enum Kind {
    BLOCKING_CALL("Blocking call on the event loop",
        "An event loop serves every request with one thread; while it waits, everything else waits too. "
            + "Use a non-blocking API (vertx.timer, the Vert.x file system, an async client), or move the call "
            + "off the loop with executeBlocking or a worker executor."),
    STALL("Event loop stalled",
        "Long CPU work on the event loop delays every other handler, timer and request on that loop. "
            + "If the task computes, move the computation to executeBlocking or a worker executor. If it loops "
            + "until something changes (a count, a flag, a future), nothing can change while it holds the loop: "
            + "answer at once instead (refuse, or carry on in a callback when the thing completes)."),
    WAITING_STALL("Event loop stalled",
        "The loop used no CPU: it waited, and an event loop serves every request with one thread, so while it "
            + "waits everything else waits too. Never make the loop wait for a monitor, a lock or I/O that another "
            + "thread may hold: let the work that needs it run on a worker thread (executeBlocking), or keep the "
            + "shared state on one context and hand over results with a Future."),
    UNHANDLED_EXCEPTION("Exception nobody handled",
        "An exception escaped to Vert.x, so whoever waits for the result never hears about the failure. "
            + "Catch it and fail the promise or the future, or answer the request with an error."),
    SETTLED_TWICE("Exception nobody handled",
        "A promise was settled a second time: Promise.complete and Promise.fail throw once the promise has an "
            + "outcome. When several outcomes race for one promise (an answer, a deadline, a caller who gives up), "
            + "settle it with tryComplete or tryFail: the first one wins, and the others lose quietly."),
    CONFINEMENT("State touched off the verticle's context",
        "Only the verticle's own context may touch its fields: Vert.x runs its handlers there one at a time, which is "
            + "what makes them safe without locks. Hand the work back with context.runOnContext(...), or continue "
            + "on a Vert.x future (executeBlocking's result, Future.fromCompletionStage(stage, context)), whose "
            + "handlers run on the verticle's context.");

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
    if (call != null) {
      return kind.title + ": " + call + at + " (thread " + thread + "); " + what + ". " + kind.why;
    }
    return kind.title + ": " + what + at + " (thread " + thread + "). " + kind.why;
  }

  @Override
  public String toString() {
    return message();
  }
}
