package io.looplab.grader.guard;

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
    assertViolation("sleepsOnEventLoop", "Blocking call", "java.lang.Thread.sleep", "Misbehaviour.java:", "vert.x-eventloop-thread");
  }

  @Test
  @DisplayName("Files.readString on the event loop is reported")
  void filesReadIsCaught() {
    assertViolation("readsFileWithFilesOnEventLoop", "Blocking call", "Misbehaviour.java:");
  }

  @Test
  @DisplayName("a FileInputStream read on the event loop is reported")
  void streamReadIsCaught() {
    assertViolation("readsFileWithStreamOnEventLoop", "Blocking call", "Misbehaviour.java:");
  }

  @Test
  @DisplayName("a 150 ms CPU spin on the event loop is reported as a stall at the learner's line")
  void spinIsCaught() {
    assertViolation("spinsOnEventLoop", "Event loop stalled", "Misbehaviour.java:", "spin()");
  }

  @Test
  @DisplayName("an exception that escapes to Vert.x fails the test even though the test itself completed")
  void unhandledExceptionIsCaught() {
    assertViolation("throwsOnEventLoop", "Exception nobody handled", "boom from the handler", "Misbehaviour.java:");
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
