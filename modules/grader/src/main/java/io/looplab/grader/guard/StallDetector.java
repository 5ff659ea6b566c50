package io.looplab.grader.guard;

import io.vertx.core.impl.VertxThread;
import io.vertx.core.internal.threadchecker.BlockedThreadEvent;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Turns Vert.x's blocked-thread checker into a failing check. The guard lowers the checker's limit to a few tens
 * of milliseconds and its period to 10 ms; this handler then runs on the checker's own timer thread while the loop
 * is still stuck, so the loop's stack shows the learner's line.
 */
final class StallDetector {

  /** One report per stuck task: the task is known by its thread and the time it started. */
  private final Map<Thread, Long> reported = new ConcurrentHashMap<>();

  void onBlocked(BlockedThreadEvent event) {
    if (!(event.thread() instanceof VertxThread thread) || thread.isWorker()) {
      return; // worker threads exist to block
    }
    long taskStart = thread.startTime();
    if (taskStart == 0 || Long.valueOf(taskStart).equals(reported.get(thread))) {
      return;
    }
    StackTraceElement[] stack = thread.getStackTrace();
    int learnerFrame = CodeUnderTest.firstFrameIndex(stack);
    if (learnerFrame < 0 || CodeUnderTest.isWarmingUp(stack, learnerFrame)) {
      return; // not the code under test, or the JVM loading classes: ask again on the next tick
    }
    reported.put(thread, taskStart);
    long millis = event.duration() / 1_000_000;
    ViolationLog.report(new Violation(Violation.Kind.STALL, thread.getName(),
        "one task kept the loop busy for " + millis + " ms and counting (the limit is "
            + event.maxExecTime() / 1_000_000 + " ms), running " + stack[learnerFrame].getMethodName() + "()",
        CodeUnderTest.describe(stack[learnerFrame])));
  }
}
