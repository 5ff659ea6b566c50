package io.looplab.grader.internal.guard;

import io.vertx.core.Handler;
import io.vertx.core.internal.VertxInternal;

import java.util.Arrays;
import java.util.Set;

/**
 * Receives what Vert.x would otherwise only log as "Unhandled exception". A promise settled twice gets words of its
 * own: it is the usual end of a race between outcomes, and the fix (tryComplete, tryFail) is always the same.
 */
final class UnhandledExceptions implements Handler<Throwable>, Detector {

  private static final String PROMISE = "io.vertx.core.Promise";
  /** What Vert.x 5's Promise says when completed (the first) or failed (the second) once it has an outcome. */
  private static final Set<String> SETTLED_ALREADY = Set.of("Result is already complete", "Promise already completed");

  @Override
  public String name() {
    return "unhandled-exception detection";
  }

  /** Receives what the instance would only log; one handler serves every instance, as it keeps nothing. */
  @Override
  public void watch(VertxInternal vertx) {
    vertx.exceptionHandler(this);
  }

  @Override
  public void handle(Throwable error) {
    StackTraceElement[] stack = error.getStackTrace();
    String where = CodeUnderTest.firstFrame(stack).orElse(null);
    String thread = Thread.currentThread().getName();
    if (!settledTwice(error)) {
      GuardSession.report(new Violation(Violation.Kind.UNHANDLED_EXCEPTION, thread, error.toString(), where));
      return;
    }
    // A future settled the promise that listens to it (onComplete(promise)): the promise's own frames are then called
    // by Vert.x's future code, no line of the learner's is on the stack, and the message says why.
    boolean asHandler = where == null && Arrays.stream(stack).dropWhile(f -> f.getClassName().equals(PROMISE))
        .findFirst().filter(f -> f.getClassName().startsWith("io.vertx.core.impl.future.")).isPresent();
    GuardSession.report(new Violation(Violation.Kind.SETTLED_TWICE, thread, error + (asHandler ? ", thrown where "
        + "Vert.x passed an outcome to a promise that was given as a handler (as in future.onComplete(promise)), so "
        + "no line of the code under test is on its stack" : ""), where));
  }

  /** Vert.x's own complaint, thrown by Promise itself, about a promise completed or failed again. */
  private static boolean settledTwice(Throwable error) {
    StackTraceElement[] stack = error.getStackTrace();
    return error instanceof IllegalStateException && SETTLED_ALREADY.contains(error.getMessage())
        && stack.length > 0 && stack[0].getClassName().equals(PROMISE);
  }
}
