package io.looplab.grader.guard;

import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.DynamicTestInvocationContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Optional;

/**
 * Fails a test for what it does to the event loop, even when every assertion passed: a blocking call, a stall, or
 * an exception nobody handled. A violation fails the test's {@link VertxTestContext} at once, so the test ends
 * with the real cause instead of a timeout, and it takes precedence over the failure it led to (a 500 response,
 * a missing reply), because that failure is only its consequence.
 */
public final class EventLoopGuard implements BeforeAllCallback, BeforeEachCallback, AfterEachCallback,
    InvocationInterceptor {

  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(EventLoopGuard.class);
  private static final String MARK = "violations-before-test";

  /** Where vertx-junit5 keeps a test's contexts (see VertxExtension); read, never written. */
  private static final String VERTX_TEST_CONTEXTS = "VertxTestContext";

  @Override
  public void beforeAll(ExtensionContext context) {
    CodeUnderTest.watchPackage(context.getRequiredTestClass().getPackageName());
    GuardServiceProvider.arm();
    String problem = BlockingCallDetector.ensureInstalled();
    if (problem != null) {
      throw new IllegalStateException(problem);
    }
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    context.getStore(NAMESPACE).put(MARK, ViolationLog.mark());
    ViolationLog.listen(violation -> failRunningTestContexts(context, violation));
  }

  @Override
  public void interceptTestMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> invocationContext,
                                  ExtensionContext context) throws Throwable {
    guard(invocation, context);
  }

  @Override
  public void interceptTestTemplateMethod(Invocation<Void> invocation,
                                          ReflectiveInvocationContext<Method> invocationContext,
                                          ExtensionContext context) throws Throwable {
    guard(invocation, context);
  }

  @Override
  public void interceptDynamicTest(Invocation<Void> invocation, DynamicTestInvocationContext invocationContext,
                                   ExtensionContext context) throws Throwable {
    guard(invocation, context);
  }

  @Override
  public void afterEach(ExtensionContext context) {
    ViolationLog.listen(null);
    // Violations raised after the test body, while tearing down, still count.
    List<Violation> late = ViolationLog.since(markOf(context));
    if (!late.isEmpty() && context.getExecutionException().isEmpty()) {
      throw new ViolationError(late, null);
    }
  }

  private void guard(Invocation<Void> invocation, ExtensionContext context) throws Throwable {
    int mark = ViolationLog.mark();
    try {
      invocation.proceed();
    } catch (Throwable failure) {
      List<Violation> seen = ViolationLog.since(mark);
      if (seen.isEmpty() || failure instanceof ViolationError) {
        throw failure;
      }
      throw new ViolationError(seen, failure);
    }
    List<Violation> seen = ViolationLog.since(mark);
    if (!seen.isEmpty()) {
      throw new ViolationError(seen, null);
    }
  }

  private static int markOf(ExtensionContext context) {
    Integer mark = context.getStore(NAMESPACE).get(MARK, Integer.class);
    return mark == null ? ViolationLog.mark() : mark;
  }

  /** Ends the test now: a waiting VertxTestContext would otherwise sit until its timeout. */
  private static void failRunningTestContexts(ExtensionContext context, Violation violation) {
    for (Optional<ExtensionContext> c = Optional.of(context); c.isPresent(); c = c.get().getParent()) {
      Object contexts = c.get().getStore(ExtensionContext.Namespace.GLOBAL).get(VERTX_TEST_CONTEXTS);
      if (contexts instanceof List<?> list) {
        for (Object testContext : List.copyOf(list)) {
          if (testContext instanceof VertxTestContext vtc && !vtc.completed()) {
            vtc.failNow(new ViolationError(List.of(violation), null));
          }
        }
      }
    }
  }

}
