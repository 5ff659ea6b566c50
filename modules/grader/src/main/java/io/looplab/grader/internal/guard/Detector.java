package io.looplab.grader.internal.guard;

import io.vertx.core.internal.VertxInternal;

/**
 * One kind of mistake the guard catches. A detector finds it wherever it happens (a BlockHound callback, Vert.x's
 * blocked-thread checker, the learner's rewritten classes), describes it as a {@link Violation} and hands it to the
 * running test class's session with {@link GuardSession#report}; the guard turns what the session collected into the
 * test's failure. {@link EventLoopGuard#DETECTORS} lists them all.
 */
interface Detector {

  /** What it catches, in a few words, as a message says it cannot: "blocking-call detection". */
  String name();

  /**
   * A guarded test class starts, once {@link CodeUnderTest} watches its package: installs what the detector needs
   * (whatever is installed for the whole JVM, once). Throws {@link IllegalStateException} when the detector cannot
   * work and the class must not be graded without it; a detector the grade can do without says so and stays off.
   */
  default void start(GuardSession session) {
  }

  /** A Vert.x instance was built while a guarded class ran: hooks the detector into it. */
  default void watch(VertxInternal vertx) {
  }

  /** The class has ended, and with it what the detector kept for it. */
  default void stop(GuardSession session) {
  }
}
