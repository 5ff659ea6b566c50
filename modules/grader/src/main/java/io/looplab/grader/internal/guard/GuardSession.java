package io.looplab.grader.internal.guard;

import java.util.function.Consumer;

/**
 * What the guard knows about one guarded test class while it runs, from the guard's {@code beforeAll} to its
 * {@code afterAll}: the violations its detectors found, the calls its tests hold back, the event loops found stuck for
 * good, the thread that runs its tests and the verticles whose fields the confinement detector judges. The guard keeps it in its JUnit store, so nothing of
 * one test class is left over for the next; within the class, each test reads the log from its own mark.
 */
final class GuardSession {

  /**
   * The session of the guarded test class that is running, or null between classes: the guard's one mutable static,
   * and it cannot be avoided. The detectors are not called by the test: BlockHound's callback is global to the JVM and
   * runs on whatever thread made the blocking call, Vert.x's blocked-thread checker and exception handler run on its
   * own threads, and the learner's rewritten classes call {@link Confinement} from anywhere. None of them sees the
   * test's {@code ExtensionContext}, so they find the running test's session here. It is set when a guarded class
   * starts and put back as it was when the class ends (a {@code @Nested} class runs inside its outer class); test
   * classes of one JVM run one at a time, so there is one at most.
   */
  private static volatile GuardSession current;

  private final ViolationLog violations = new ViolationLog();
  private final HeldBack heldBack = new HeldBack();
  private final StuckLoops stuckLoops = new StuckLoops();
  private final Confinement.Owners verticles = new Confinement.Owners();
  private final Thread testThread;
  private final io.looplab.grader.guard.GuardOptions options;
  /** The session that was current when this one opened (an outer class's, for a nested class), or null. */
  private final GuardSession outer;

  private GuardSession(Thread testThread, GuardSession outer, io.looplab.grader.guard.GuardOptions options) {
    this.testThread = testThread;
    this.outer = outer;
    this.options = options;
  }

  /** Starts the session of a guarded test class, on the thread that runs its tests, and makes it the current one. */
  static GuardSession open() {
    return open(io.looplab.grader.guard.GuardOptions.DEFAULTS);
  }

  /** {@link #open()}, with what the project told the guard about its tests. */
  static GuardSession open(io.looplab.grader.guard.GuardOptions options) {
    GuardSession session = new GuardSession(Thread.currentThread(), current, options);
    current = session;
    return session;
  }

  /** The running test class's session, or null when no guarded class runs. */
  static GuardSession current() {
    return current;
  }

  /** Reports to the running test class's session; a violation found while no guarded class runs is nobody's. */
  static void report(Violation violation) {
    GuardSession session = current;
    if (session != null) {
      session.violations.report(violation);
    }
  }

  /** Does {@code action} with the running session, if there is one. */
  static void ifOpen(Consumer<GuardSession> action) {
    GuardSession session = current;
    if (session != null) {
      action.accept(session);
    }
  }

  /** What the project told the guard about this class's tests ({@code GuardOptions.DEFAULTS} when nothing). */
  io.looplab.grader.guard.GuardOptions options() {
    return options;
  }

  ViolationLog violations() {
    return violations;
  }

  HeldBack heldBack() {
    return heldBack;
  }

  /** The event loops found stuck for good while this class ran. */
  StuckLoops stuckLoops() {
    return stuckLoops;
  }

  Confinement.Owners verticles() {
    return verticles;
  }

  /** The thread that runs the class's tests: the confinement detector never judges it. */
  Thread testThread() {
    return testThread;
  }

  /**
   * The class has ended: what detectors find from now on (a Vert.x closing late) is not this class's, and goes to the
   * outer class's session, or to no one.
   */
  void close() {
    if (current == this) {
      current = outer;
    }
  }
}
