package io.looplab.grader.internal.guard;

import io.vertx.core.Handler;

/** Receives what Vert.x would otherwise only log as "Unhandled exception". */
final class UnhandledExceptions implements Handler<Throwable> {

  @Override
  public void handle(Throwable error) {
    StackTraceElement[] stack = error.getStackTrace();
    ViolationLog.report(new Violation(Violation.Kind.UNHANDLED_EXCEPTION, Thread.currentThread().getName(),
        error.toString(), CodeUnderTest.firstFrame(stack).orElse(null)));
  }
}
