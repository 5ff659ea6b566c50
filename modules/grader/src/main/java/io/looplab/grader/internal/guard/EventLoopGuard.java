package io.looplab.grader.internal.guard;

import io.looplab.grader.internal.leaks.TimerSites;
import io.looplab.grader.testkit.Await;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.DynamicTestInvocationContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

import java.io.IOException;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Fails a test for what it does to the event loop, even when every assertion passed: a blocking call, a stall, or
 * an exception nobody handled. A violation fails the test's {@link VertxTestContext} at once, so the test ends
 * with the real cause instead of a timeout, and it takes precedence over the failure it led to (a 500 response,
 * a missing reply), because that failure is only its consequence.
 *
 * <p>What the guard learns about a test class lives in a {@link GuardSession}, opened in its store as the class starts
 * and closed when it ends.
 */
public final class EventLoopGuard implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback,
    AfterEachCallback, InvocationInterceptor {

  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(EventLoopGuard.class);
  private static final String SESSION = "session";
  private static final String MARK = "violations-before-test";
  /** In a test factory's or template's store: the case that left an event loop stuck, and where. */
  private static final String LEFT_STUCK = "case-that-left-a-loop-stuck";
  /** In a case's own store: it is one case of a test factory or template. */
  private static final String ONE_CASE = "one-case";

  /** Every detector the guard runs, in the order they start; a new one is added here (see CONTRIBUTING.md). */
  static final List<Detector> DETECTORS = List.of(new BlockingCallDetector(), new ConfinementDetector(),
      new StallDetector(), new UnhandledExceptions());

  /**
   * Installs blocking-call detection ahead of time (it rewrites JDK classes, which takes about a second), so that a
   * grading JVM can do it while the grader is still compiling the code under test.
   */
  public static void warmUp() {
    BlockingCallDetector.ensureInstalled();
    watchTimerSites();
  }

  /**
   * For a JVM that warmed up and ends without grading: writes BlockHound's rewrites where the kit asked them kept (the
   * class archive's maker), and returns a line on them for its log (empty when nothing was remembered or replayed).
   */
  public static Optional<String> afterWarmUp() throws IOException {
    return BlockingCallDetector.finishRewrites();
  }

  /**
   * Where timers are set, for the leak checks. Without it (Byte Buddy missing from a class path written before the
   * grader needed it) they fall back to Vert.x's own timer map, which is no reason to stop grading.
   */
  private static void watchTimerSites() {
    try {
      TimerSites.ensureInstalled();
    } catch (LinkageError e) {
      // the census reads Vert.x's timer map instead
    }
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    io.looplab.grader.guard.GuardOptions options = io.looplab.grader.guard.GuardOptions.of(context)
        .orElse(io.looplab.grader.guard.GuardOptions.DEFAULTS);
    GuardSession session = GuardSession.open(options);
    context.getStore(NAMESPACE).put(SESSION, session);
    CodeUnderTest.watch(context.getRequiredTestClass(), options.ownPackages());
    GuardServiceProvider.arm();
    watchTimerSites();
    for (Detector detector : DETECTORS) {
      detector.start(session);
    }
  }

  /** Closed here, not by the store: whether the store closes what it holds depends on a JUnit setting. */
  @Override
  public void afterAll(ExtensionContext context) {
    GuardSession session = context.getStore(NAMESPACE).remove(SESSION, GuardSession.class);
    if (session != null) {
      for (Detector detector : DETECTORS) {
        detector.stop(session);
      }
      session.close();
    }
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    GuardSession session = sessionOf(context);
    context.getStore(NAMESPACE).put(MARK, session.violations().mark());
    session.heldBack().forget();
  }

  @Override
  public void interceptBeforeEachMethod(Invocation<Void> invocation,
                                        ReflectiveInvocationContext<Method> invocationContext,
                                        ExtensionContext context) throws Throwable {
    guard(sessionOf(context), invocation, invocationContext.getArguments());
  }

  @Override
  public void interceptTestMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> invocationContext,
                                  ExtensionContext context) throws Throwable {
    guard(sessionOf(context), invocation, invocationContext.getArguments());
  }

  @Override
  public void interceptTestTemplateMethod(Invocation<Void> invocation,
                                          ReflectiveInvocationContext<Method> invocationContext,
                                          ExtensionContext context) throws Throwable {
    guardOneCase(invocation, invocationContext.getArguments(), context);
  }

  @Override
  public void interceptDynamicTest(Invocation<Void> invocation, DynamicTestInvocationContext invocationContext,
                                   ExtensionContext context) throws Throwable {
    guardOneCase(invocation, List.of(), context);
  }

  /**
   * Runs one case of a test factory or template, unless an earlier case left an event loop stuck for good
   * ({@link StuckLoops}). The test has failed with that case, and earns all its points or none; each further case
   * would only leave one more loop spinning, taking CPU from every test after it (six orders of one factory of 10's
   * did, and the exercise ran out of time). Such a case is skipped, and says why.
   */
  private void guardOneCase(Invocation<Void> invocation, List<Object> arguments, ExtensionContext context)
      throws Throwable {
    String notRun = casesOf(context).get(LEFT_STUCK, String.class);
    if (notRun != null) {
      invocation.skip();
      throw new TestAbortedException(notRun);
    }
    context.getStore(NAMESPACE).put(ONE_CASE, true);
    guard(sessionOf(context), invocation, arguments, stall -> noteLeftStuck(context, stall));
  }

  /** The store that the cases of one test factory or template share. */
  private static ExtensionContext.Store casesOf(ExtensionContext oneCase) {
    return oneCase.getParent().orElse(oneCase).getStore(NAMESPACE);
  }

  /** Skips the later cases of {@code oneCase}'s test: it left a loop stuck, in the task of {@code stall}. */
  private static void noteLeftStuck(ExtensionContext oneCase, Violation stall) {
    casesOf(oneCase).put(LEFT_STUCK, "Not run: an earlier case of this test, '" + oneCase.getDisplayName()
        + "', left an event loop stuck for good" + (stall == null || stall.where() == null ? ""
        : " at " + stall.where()) + ", and each further case would only leave one more spinning.");
  }

  @Override
  public void afterEach(ExtensionContext context) {
    // Violations raised after the test body, while tearing down, still count; those of the close below are not
    // judged, as they were not before the close was bounded here.
    GuardSession session = sessionOf(context);
    ViolationLog log = session.violations();
    List<Violation> late = log.since(markOf(context, log));
    boolean failedAlready = context.getExecutionException().isPresent();
    try {
      BoundedVertxClose.closeOf(context, session.stuckLoops());
    } catch (AssertionFailedError hung) {
      boolean oneCase = Boolean.TRUE.equals(context.getStore(NAMESPACE).get(ONE_CASE));
      if (hung instanceof BoundedVertxClose.LoopStuck && oneCase) {
        // a case of a test template that ended before its loop was found stuck (a VertxTestContext the guard failed)
        noteLeftStuck(context, late.stream().filter(EventLoopGuard::isStall).findFirst().orElse(null));
      }
      if (late.isEmpty() && !failedAlready) {
        throw hung;
      }
    }
    if (!late.isEmpty() && !failedAlready) {
      throw new ViolationError(late, null);
    }
  }

  /**
   * Runs one test or lifecycle method. While it runs, a violation fails the method's VertxTestContext at once;
   * vertx-junit5 would otherwise wait for that context until its timeout.
   */
  private void guard(GuardSession session, Invocation<Void> invocation, List<Object> arguments) throws Throwable {
    guard(session, invocation, arguments, stall -> { });
  }

  /** {@link #guard(GuardSession, Invocation, List)}, telling {@code leftStuck} the stall of a loop that ended it. */
  private void guard(GuardSession session, Invocation<Void> invocation, List<Object> arguments,
                     Consumer<Violation> leftStuck) throws Throwable {
    ViolationLog log = session.violations();
    List<VertxTestContext> waiting = arguments.stream().filter(VertxTestContext.class::isInstance)
        .map(VertxTestContext.class::cast).toList();
    log.listen(violation -> waiting.stream().filter(c -> !c.completed() && !c.failed())
        .forEach(c -> c.failNow(new ViolationError(List.of(violation), null))));
    int mark = log.mark();
    // A loop stuck for good ends the test's waits: nothing it waits for can come, and the test has failed already.
    StuckTestInterrupter interrupter = new StuckTestInterrupter(Thread.currentThread(), log, mark);
    StuckLoops.Listening listening = session.stuckLoops().listen(interrupter::loopStuck);
    try {
      invocation.proceed();
    } catch (Throwable failure) {
      List<Violation> seen = log.since(mark);
      if (seen.isEmpty() || failure instanceof ViolationError) {
        notePending(failure);
        throw failure;
      }
      throw new ViolationError(seen, failure);
    } finally {
      log.listen(null);
      listening.close();
      interrupter.close();
      interrupter.endedBy().ifPresent(leftStuck);
    }
    List<Violation> seen = log.since(mark);
    if (!seen.isEmpty()) {
      throw new ViolationError(seen, null);
    }
  }

  /**
   * When the test ran out of time (its VertxTestContext's limit, JUnit's, or an {@link Await} that was late), says
   * what was still pending, while the test's Vert.x is still open: which request got no answer, which lock was held.
   */
  private static void notePending(Throwable failure) {
    boolean timedOut = Thread.currentThread().isInterrupted();
    for (Throwable t = failure; t != null && !timedOut; t = t.getCause() == t ? null : t.getCause()) {
      timedOut = t instanceof java.util.concurrent.TimeoutException || t instanceof Await.Late;
    }
    if (timedOut && PendingNote.in(failure).isEmpty()) {
      String sentence = StillPending.sentence();
      if (!sentence.isEmpty()) {
        failure.addSuppressed(new PendingNote(sentence));
      }
    }
  }

  static boolean isStall(Violation violation) {
    return violation.kind() == Violation.Kind.STALL || violation.kind() == Violation.Kind.WAITING_STALL;
  }

  private static int markOf(ExtensionContext context, ViolationLog log) {
    Integer mark = context.getStore(NAMESPACE).get(MARK, Integer.class);
    return mark == null ? log.mark() : mark;
  }

  /** The test class's session, which a test's own context finds in its class's store. */
  private static GuardSession sessionOf(ExtensionContext context) {
    return context.getStore(NAMESPACE).get(SESSION, GuardSession.class);
  }
}
