package io.looplab.grader.guard;

import reactor.blockhound.BlockHound;
import reactor.blockhound.BlockingOperationError;

import java.util.Arrays;

/**
 * Catches a blocking call on an event-loop thread at the moment it is made, with BlockHound. Netty's own BlockHound
 * integration (loaded through ServiceLoader) already treats Vert.x event loops as non-blocking threads and its
 * worker threads as allowed to block; this class adds what a grader needs on top.
 *
 * <p>BlockHound rewrites JDK classes for the whole JVM and for good, which is why graded tests run in a JVM of their
 * own, started with {@code -XX:+AllowRedefinitionToAddDeleteMethods}.
 */
final class BlockingCallDetector {

  private static final Object lock = new Object();
  private static volatile Boolean installed;
  private static volatile String failure;

  private BlockingCallDetector() {
  }

  /** Installs once per JVM. Returns why it could not, or {@code null} when detection is on. */
  static String ensureInstalled() {
    if (installed == null) {
      synchronized (lock) {
        if (installed == null) {
          try {
            BlockHound.install(builder -> builder
                // UUID.randomUUID reads the OS entropy source once it is seeded; generating ids is normal.
                .allowBlockingCallsInside("java.util.UUID", "randomUUID")
                // Without this, Files.readString / readAllBytes on the loop slip through.
                .markAsBlocking("sun.nio.ch.FileChannelImpl", "read", "(Ljava/nio/ByteBuffer;)I")
                .markAsBlocking("sun.nio.ch.FileChannelImpl", "write", "(Ljava/nio/ByteBuffer;)I")
                .blockingMethodCallback(method -> {
                  Thread thread = Thread.currentThread();
                  StackTraceElement[] stack = new Throwable().getStackTrace();
                  int learner = CodeUnderTest.firstFrameIndex(stack);
                  String call = method.getClassName().replace('/', '.') + "." + method.getName();
                  if (learner < 0) {
                    // Vert.x, Netty or the test itself, not the learner's code: not theirs to fix. Let it run,
                    // since throwing inside Vert.x's own machinery (a close, say) could wedge it.
                    System.err.println("looplab: not graded, a blocking call outside the code under test: " + call
                        + " on " + thread.getName() + " from " + Arrays.stream(stack)
                        .filter(f -> !f.getClassName().matches("(java|jdk|sun|reactor|io\\.looplab\\.grader\\.guard)\\..*")).findFirst().orElse(null));
                    return;
                  }
                  if (CodeUnderTest.isWarmingUp(stack, learner)) {
                    // The JVM loading or initialising a class (the first socket reads a config file, say):
                    // once per JVM, and not the learner's doing.
                    return;
                  }
                  ViolationLog.report(new Violation(Violation.Kind.BLOCKING_CALL, thread.getName(),
                      BlockingCalls.describe(call),
                      CodeUnderTest.describe(stack[learner])));
                  // Stop the call, as BlockHound does: a test should not sit through a two-second sleep.
                  throw new BlockingOperationError(method);
                }));
            installed = true;
          } catch (Throwable e) {
            failure = "blocking-call detection could not start (" + e + "). Graded tests need the JVM flag "
                + "-XX:+AllowRedefinitionToAddDeleteMethods; run them with ./lab or mvn, which pass it.";
            installed = false;
          }
        }
      }
    }
    return installed ? null : failure;
  }
}
