package io.looplab.grader.internal.guard;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.Optional;

/**
 * Where a thread is, in the guard's words: for a test that the kit stops at the exercise's time limit, so that its
 * report says what was still going on (the learner's line that never returned, or the wait that never ended) rather
 * than only that time ran out.
 */
public final class Whereabouts {

  private Whereabouts() {
  }

  /**
   * One sentence on what {@code thread} is doing now: running or waiting, in which call, at which line of the
   * learner's code and of the test; empty when the thread is gone or runs neither the learner's code nor a test's.
   */
  public static Optional<String> of(Thread thread) {
    ThreadInfo info = ManagementFactory.getThreadMXBean().getThreadInfo(thread.getId(), Integer.MAX_VALUE);
    if (info == null) {
      return Optional.empty();
    }
    StackTraceElement[] stack = info.getStackTrace();
    boolean waiting = info.getThreadState() != Thread.State.RUNNABLE
        || StallDetector.waitingEvidence(info, stack) != null;
    String holder = info.getLockOwnerName() == null ? "" : " (what it waits for is held by thread "
        + info.getLockOwnerName() + ")";
    int learner = CodeUnderTest.firstFrameIndex(stack);
    int test = firstTestFrame(stack);
    if (learner >= 0 && (test < 0 || learner < test)) {
      CodeUnderTest.CallSite site = CodeUnderTest.callSite(stack, learner, 0, waiting);
      String testLine = test < 0 ? "" : " (the test called it at " + LearnersFrame.line(stack[test]) + ")";
      return Optional.of(waiting
          ? "waiting in " + site + testLine + holder + ": a wait for something that never happens?"
          : "still running your code, " + site + testLine + ": a loop that never ends?");
    }
    if (test >= 0) {
      return Optional.of(waiting
          ? "waiting in " + CodeUnderTest.callSite(stack, test, 0, true) + ", in the test" + holder + ": what it "
              + "waits for (an answer, a call, a completed future) never came"
          : "running the test at " + LearnersFrame.line(stack[test]));
    }
    return Optional.empty();
  }

  /**
   * Whether {@code thread} is in the learner's code (running it, or waiting inside it) rather than in a test's: a
   * time limit struck there is the code's, however busy the machine was.
   */
  public static boolean inLearnersCode(Thread thread) {
    ThreadInfo info = ManagementFactory.getThreadMXBean().getThreadInfo(thread.getId(), Integer.MAX_VALUE);
    if (info == null) {
      return false;
    }
    StackTraceElement[] stack = info.getStackTrace();
    int learner = CodeUnderTest.firstFrameIndex(stack);
    int test = firstTestFrame(stack);
    return learner >= 0 && (test < 0 || learner < test);
  }

  private static int firstTestFrame(StackTraceElement[] stack) {
    for (int i = 0; i < stack.length; i++) {
      String type = stack[i].getClassName();
      if (CodeUnderTest.isTestClass(type) && !CodeUnderTest.isLearnersClass(type)) {
        return i;
      }
    }
    return -1;
  }
}
