package io.looplab.grader.internal.guard;

import io.looplab.grader.fixtures.GuardedScenarios;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

/** The guard fires on a really blocked, stalled or crashed loop, names the line, and stays silent on clean code. */
class EventLoopGuardTest {

  static Events run(String method) {
    return EngineTestKit.engine("junit-jupiter")
        // The engine under test does not read junit-platform.properties: pass on its setting that keeps JUnit 5.14
        // from warning, on every scenario, that vertx-junit5's ScopedObject is a CloseableResource.
        .configurationParameter("junit.jupiter.extensions.store.close.autocloseable.enabled", "false")
        .selectors(selectMethod(GuardedScenarios.class, method, "io.vertx.core.Vertx,io.vertx.junit5.VertxTestContext"))
        .execute().testEvents();
  }

  static Throwable failureOf(String method) {
    Events events = run(method);
    List<Event> failed = events.failed().list();
    assertEquals(1, failed.size(), method + " should have failed, but: " + events.list());
    return failed.get(0).getPayload(org.junit.platform.engine.TestExecutionResult.class).orElseThrow()
        .getThrowable().orElseThrow();
  }

  static void assertViolation(String method, String... fragments) {
    Throwable failure = failureOf(method);
    assertInstanceOf(ViolationError.class, failure, "expected the guard's error, got " + failure);
    for (String fragment : fragments) {
      assertTrue(failure.getMessage().contains(fragment),
          "message should mention '" + fragment + "': " + failure.getMessage());
    }
  }

  static void assertPasses(String method) {
    Events events = run(method);
    assertEquals(1, events.succeeded().count(), method + " should pass, but: " + events.failed().list());
  }

  @Test
  @DisplayName("a 1 ms Thread.sleep on the event loop is reported at the learner's line")
  void sleepIsCaught() {
    assertViolation("sleepsOnEventLoop", "Blocking call", "a sleep (java.lang.Thread.sleep) at Misbehaviour.java:",
        "vert.x-eventloop-thread");
  }

  @Test
  @DisplayName("Files.readString on the event loop is reported")
  void filesReadIsCaught() {
    assertViolation("readsFileWithFilesOnEventLoop", "Blocking call",
        "Files.readString, called from readWithFiles() at Misbehaviour.java:", "a file read");
  }

  @Test
  @DisplayName("a FileInputStream read on the event loop is reported")
  void streamReadIsCaught() {
    assertViolation("readsFileWithStreamOnEventLoop", "Blocking call",
        "a read through a FileInputStream", "(java.io.FileInputStream.read) at Misbehaviour.java:");
  }

  @Test
  @DisplayName("a 150 ms CPU spin on the event loop is reported as a stall at the learner's line")
  void spinIsCaught() {
    assertViolation("spinsOnEventLoop", "Event loop stalled", "running spin() at Misbehaviour.java:");
  }

  @Test
  @DisplayName("an exception that escapes to Vert.x fails the test even though the test itself completed")
  void unhandledExceptionIsCaught() {
    assertViolation("throwsOnEventLoop", "Exception nobody handled", "boom from the handler", "Misbehaviour.java:");
  }

  @Test
  @DisplayName("a promise completed twice is named as such, at the learner's second complete, with tryComplete as the fix")
  void promiseSettledTwiceIsNamed() {
    assertViolation("completesAPromiseTwice", "Exception nobody handled", "IllegalStateException",
        "Misbehaviour.java:", "settled a second time", "tryComplete");
  }

  @Test
  @DisplayName("a promise given as a handler and settled first says why no learner line is on the stack")
  void promiseGivenAsAHandlerSaysWhyNoLineIsShown() {
    assertViolation("completesAPromiseGivenAsAHandlerTwice", "settled a second time",
        "given as a handler (as in future.onComplete(promise))");
  }

  @Test
  @DisplayName("a blocking call inside given code is reported at the learner's call into it, named and described")
  void blockingCallInGivenCodeNamesTheCall() {
    assertViolation("callsGivenBlockingCodeOnEventLoop", "Blocking call",
        "GivenLibrary.fetch (a given library), called from callGivenBlockingCode() at Misbehaviour.java:",
        "inside it, a sleep (java.lang.Thread.sleep)");
  }

  @Test
  @DisplayName("a stall inside given code is reported at the learner's call into it, not at the given code's line")
  void stallInGivenCodeNamesTheCall() {
    Throwable failure = failureOf("callsGivenComputationOnEventLoop");
    assertTrue(failure.getMessage().contains(
        "Event loop stalled: GivenLibrary.crunch (a given library), called from callGivenComputation() at Misbehaviour.java:"),
        failure.getMessage());
    assertTrue(failure.getMessage().contains("busy for"), failure.getMessage());
  }

  @RepeatedTest(20)
  @DisplayName("a loop BLOCKED on a monitor that another thread holds is a stall, though it uses no CPU")
  void monitorContentionIsCaught() {
    assertViolation("waitsForMonitorOnEventLoop", "Event loop stalled", "kept the loop waiting",
        "blocked entering a synchronized block", "which thread monitor-holder held", "enterMonitor()",
        "Misbehaviour.java:");
  }

  @RepeatedTest(20)
  @DisplayName("a SocketChannel read in blocking mode on the event loop is a blocking call, named at the learner's line")
  void blockingSocketChannelReadIsCaught() {
    assertViolation("readsBlockingSocketChannelOnEventLoop", "Blocking call",
        "SocketChannel.read, called from readBlockingSocketChannel() at Misbehaviour.java:",
        "in blocking mode", "sun.nio.ch.SocketChannelImpl.read");
  }

  @Test
  @DisplayName("connecting a SocketChannel in blocking mode on the event loop is a blocking call")
  void blockingSocketChannelConnectIsCaught() {
    assertViolation("connectsBlockingSocketChannelOnEventLoop", "Blocking call",
        "SocketChannel.open, called from connectBlockingSocketChannel() at Misbehaviour.java:",
        "sun.nio.ch.SocketChannelImpl.connect");
  }

  @RepeatedTest(20)
  @DisplayName("Future.await() on the event loop is reported at the learner's line, though a router made it a 500")
  void awaitOnTheLoopIsCaught() {
    assertViolation("awaitsInsideRouterOnEventLoop", "Blocking call", "Future.await()",
        "io.vertx.core.Future.await) at Misbehaviour.java:", "vert.x-eventloop-thread");
  }

  @RepeatedTest(5)
  @DisplayName("a loop BLOCKED on a lock Vert.x holds inside its own code (a shared server's map) is not the learner's stall")
  void vertxsOwnLockIsNotTheLearners() {
    assertPasses("waitsForVertxsOwnLockOnEventLoop");
  }

  @RepeatedTest(5)
  @DisplayName("a loop BLOCKED on a monitor that another thread holds while it computes is a stall")
  void monitorHeldByAComputingThreadIsCaught() {
    assertViolation("waitsForMonitorHeldByComputingThread", "Event loop stalled", "kept the loop waiting",
        "blocked entering a synchronized block", "which thread monitor-holder held", "Misbehaviour.java:");
  }

  @Test
  @DisplayName("a DNS lookup through InetAddress on the event loop is a blocking call, named as the learner called it")
  void dnsLookupIsCaught() {
    assertViolation("looksUpANameOnEventLoop", "Blocking call", "a DNS lookup, which waits for the name server",
        "(java.net.InetAddress.getByName) at Misbehaviour.java:");
  }

  @Test
  @DisplayName("a seed from the system (SecureRandom.generateSeed) on the event loop is a wait for entropy")
  void seedIsCaught() {
    assertViolation("seedsSecureRandomOnEventLoop", "Blocking call", "a wait for entropy",
        "(java.security.SecureRandom.generateSeed) at Misbehaviour.java:");
  }

  @Test
  @DisplayName("a blocking SecureRandom (NativePRNGBlocking, what getInstanceStrong gives on Linux) is a wait for entropy")
  void blockingSecureRandomIsCaught() {
    assertViolation("usesBlockingSecureRandomOnEventLoop", "Blocking call", "a wait for entropy",
        "(java.security.SecureRandom.nextBytes) at Misbehaviour.java:");
  }

  @RepeatedTest(20)
  @DisplayName("monitors shared briefly with a worker, Vert.x HTTP traffic, non-blocking NIO, composed futures, "
      + "SecureRandom from /dev/urandom and address literals on the event loop are never reported")
  void newDetectionsStaySilentOnCleanCode() {
    assertPasses("sharesMonitorWithWorkerOnEventLoop");
    assertPasses("usesNonBlockingNioOnEventLoop");
    assertPasses("composesInsteadOfAwaiting");
    assertPasses("usesSecureRandomOnEventLoop");
    assertPasses("parsesAnAddressOnEventLoop");
  }

  @Test
  @DisplayName("when JUnit's time limit ends a test after a violation, the guard's error travels with the timeout")
  void violationSurvivesJUnitsTimeout() {
    Throwable failure = failureOf("stallsThenOverstaysTheTimeLimit");
    assertInstanceOf(java.util.concurrent.TimeoutException.class, failure, "expected JUnit's timeout: " + failure);
    boolean attached = java.util.Arrays.stream(failure.getSuppressed()).anyMatch(ViolationError.class::isInstance)
        || failure.getCause() instanceof ViolationError;
    assertTrue(attached, "the guard's error should be attached to the timeout (FailureMessages reports it): "
        + java.util.Arrays.toString(failure.getSuppressed()));
  }

  @RepeatedTest(20)
  @DisplayName("handing a task to a worker pool whose queue lock is taken for a moment is not a blocking call")
  void briefLockOfAPoolsQueueIsAllowed() {
    assertPasses("handsTaskToContendedPoolOnEventLoop");
  }

  @Test
  @DisplayName("a loop kept waiting at a pool's queue lock by a descheduled worker is not blamed for a stall")
  void longLockOfAPoolsQueueIsNotAStall() {
    assertPasses("handsTaskToPoolContendedForLongOnEventLoop");
  }

  @Test
  @DisplayName("a task that a pool runs on the caller's thread still may not block the event loop")
  void callerRunsTaskIsStillCaught() {
    assertViolation("poolRunsSleepingTaskOnEventLoop", "Blocking call", "a sleep (java.lang.Thread.sleep)",
        "Misbehaviour.java:", "vert.x-eventloop-thread");
  }

  @RepeatedTest(3)
  @DisplayName("a short task that a garbage collection stops for longer than the limit is not a stall: the pause is "
      + "the JVM's")
  void garbageCollectionPauseIsNotAStall() {
    assertPasses("spinsAcrossAFullGarbageCollection");
  }

  @Test
  @DisplayName("a long task that a garbage collection stops is still a stall, measured on its own time")
  void longTaskAcrossAGarbageCollectionIsAStall() {
    assertViolation("spinsLongAfterAFullGarbageCollection", "Event loop stalled", "collecting garbage not counted",
        "Misbehaviour.java:");
  }

  @Test
  @DisplayName("a verticle whose stop() never completes fails the test once the close after it runs out of time, "
      + "naming the verticle, instead of a 30 s wait")
  void closeThatNeverEndsIsReportedInTime() {
    Throwable failure = withCloseLimitOfOneSecond(() -> failureOf("leavesAVerticleThatNeverStops"));
    assertTrue(failure.getMessage().contains("Vert.x did not close within 1 s: still undeploying NeverStops"),
        failure.getMessage());
    assertTrue(failure.getMessage().contains("stop() returns"), failure.getMessage());
  }

  @Test
  @DisplayName("a close held up by an event loop that never finishes its task names that loop and the learner's line")
  void closeHeldUpByABusyEventLoopNamesIt() {
    Throwable failure = withCloseLimitOfOneSecond(() -> failureOf("leavesAVerticleThatSpinsInStop"));
    assertTrue(failure.getMessage().contains("has been running one task for")
        && failure.getMessage().contains("in stop() at Verticles.java:"), failure.getMessage());
  }

  @Test
  @DisplayName("a test that failed on its own keeps its own message when the close after it also runs out of time")
  void closeThatNeverEndsLeavesAnEarlierFailureAlone() {
    Throwable failure = withCloseLimitOfOneSecond(() -> failureOf("failsAndLeavesAVerticleThatNeverStops"));
    assertTrue(failure.getMessage().contains("the test's own failure") && !failure.getMessage().contains("did not close"),
        failure.getMessage());
  }

  @Test
  @DisplayName("a worker task still computing the learner's code a second after Vert.x closed fails the test, naming "
      + "the thread and the line")
  void workerLeftComputingIsReported() {
    try {
      Throwable failure = failureOf("leavesAWorkerSpinning");
      assertTrue(failure.getMessage().contains("After the test, Vert.x closed, but its worker thread vert.x-worker-thread-")
          && failure.getMessage().contains("was still running one task, in ")
          && failure.getMessage().contains("Misbehaviour.java:"), failure.getMessage());
    } finally {
      io.looplab.grader.fixtures.Misbehaviour.releaseSpinners();
    }
  }

  @RepeatedTest(3)
  @DisplayName("a worker task that ends on its own soon after the close is not reported")
  void workerFinishingSoonAfterTheCloseIsNotReported() {
    assertPasses("leavesAWorkerFinishingItsTask");
  }

  /** Runs a scenario with the close limit at 1 s, then lets the verticle it left stop, so its Vert.x closes. */
  private static Throwable withCloseLimitOfOneSecond(java.util.function.Supplier<Throwable> scenario) {
    System.setProperty("looplab.close.limit.seconds", "1");
    try {
      return scenario.get();
    } finally {
      System.clearProperty("looplab.close.limit.seconds");
      io.looplab.grader.fixtures.Verticles.NeverStops.letGo();
      io.looplab.grader.fixtures.Verticles.SpinsInStop.letGo();
    }
  }

  @RepeatedTest(20)
  @DisplayName("sleeping, reading files and spinning inside executeBlocking are never reported")
  void workerThreadsMayBlock() {
    assertPasses("sleepsInExecuteBlocking");
    assertPasses("spinsInExecuteBlocking");
  }

  @RepeatedTest(20)
  @DisplayName("quick work and UUID generation on the event loop are never reported")
  void cleanCodeIsSilent() {
    assertPasses("doesQuickWorkOnEventLoop");
  }
}
