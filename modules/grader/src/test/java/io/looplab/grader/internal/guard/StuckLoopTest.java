package io.looplab.grader.internal.guard;

import io.looplab.grader.fixtures.BusyWait;
import io.looplab.grader.fixtures.StuckLoopScenarios;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/**
 * An event loop stuck for good (a busy-wait for a future only that loop can complete) costs the test that got it
 * stuck, and nothing else: that test fails at the learner's line at once, the tests after it run and pass or fail on
 * their own, and the whole class ends long before any of its one-minute waits would have.
 */
class StuckLoopTest {

  /**
   * What the scenarios may take, all told. Fixed, they take a few seconds (each stuck loop costs the guard's bound,
   * 300 ms here); broken, a single wait for a stuck loop lasts {@link StuckLoopScenarios#FOREVER}, a minute.
   */
  private static final Duration BOUND = Duration.ofSeconds(40);

  @Test
  @DisplayName("a test that leaves its event loop spinning for ever fails at the learner's line, quickly; the tests "
      + "after it run and pass or fail on their own, and a factory's cases after a stuck one are skipped, saying why")
  void stuckLoopCostsItsOwnTestAlone() {
    long start = System.nanoTime();
    Events events;
    // A close that waited for a stuck loop would wait this long, and show in the time.
    System.setProperty("looplab.close.limit.seconds", String.valueOf(StuckLoopScenarios.FOREVER.toSeconds()));
    // Six stall limits, not twenty: each spinner keeps a core busy until then, beside the guard's timing tests that
    // run in the other JVM of the build.
    System.setProperty(GuardSettings.STUCK_MILLIS, "300");
    try {
      events = EngineTestKit.engine("junit-jupiter")
          .configurationParameter("junit.jupiter.extensions.store.close.autocloseable.enabled", "false")
          .selectors(selectClass(StuckLoopScenarios.class))
          .execute().testEvents();
    } finally {
      System.clearProperty("looplab.close.limit.seconds");
      System.clearProperty(GuardSettings.STUCK_MILLIS);
      BusyWait.letGo();
    }
    Duration took = Duration.ofNanos(System.nanoTime() - start);

    assertStalledAtTheLearnersLine(events, "firstTestLeavesItsLoopSpinning");
    assertPassed(events, "nextTestPasses");
    assertTrue(failureOf(events, "nextTestFailsOnItsOwn").getMessage().contains("the test's own failure"),
        "a later test's own failure is its own: " + failureOf(events, "nextTestFailsOnItsOwn"));
    assertPassed(events, "first case passes");
    assertStalledAtTheLearnersLine(events, "second case leaves its loop spinning");
    List<Event> skipped = named(events.aborted(), "third case would pass");
    assertEquals(1, skipped.size(), "the case after a stuck one should be skipped: " + events.list());
    String reason = resultOf(skipped.get(0)).getThrowable().orElseThrow().getMessage();
    assertTrue(reason.startsWith("Not run: an earlier case of this test, 'second case leaves its loop spinning', "
        + "left an event loop stuck for good at BusyWait.java:"), reason);
    assertPassed(events, "testAfterTheFactoryPasses");
    assertStalledAtTheLearnersLine(events, "testContextLeavesItsLoopSpinning");
    assertPassed(events, "lastTestPasses");
    assertTrue(took.compareTo(BOUND) < 0, "the scenarios took " + took.toMillis() + " ms: some wait for a stuck loop "
        + "was not ended");
  }

  private static void assertStalledAtTheLearnersLine(Events events, String test) {
    Throwable failure = failureOf(events, test);
    assertInstanceOf(ViolationError.class, failure, test + " should fail with the guard's error: " + failure);
    assertTrue(failure.getMessage().startsWith("Event loop stalled: one task kept the loop busy for ")
        && failure.getMessage().contains("at BusyWait.java:"), failure.getMessage());
  }

  private static void assertPassed(Events events, String test) {
    assertEquals(1, named(events.succeeded(), test).size(), test + " should pass: " + events.failed().list());
  }

  private static Throwable failureOf(Events events, String test) {
    List<Event> failed = named(events.failed(), test);
    assertEquals(1, failed.size(), test + " should fail: " + events.list());
    return resultOf(failed.get(0)).getThrowable().orElseThrow();
  }

  private static List<Event> named(Events events, String test) {
    return events.stream().filter(e -> e.getTestDescriptor().getDisplayName().equals(test)
        || e.getTestDescriptor().getDisplayName().startsWith(test + "(")).toList();
  }

  private static TestExecutionResult resultOf(Event event) {
    return event.getPayload(TestExecutionResult.class).orElseThrow();
  }
}
