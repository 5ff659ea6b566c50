package io.looplab.grader.internal.guard;

import io.looplab.grader.fixtures.ConfinementScenarios;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

/**
 * The confinement detector names a verticle's field touched off its context (the field, the thread, the learner's
 * line), and stays quiet on every hand-over Vert.x offers and on thread-safe state.
 */
class ConfinementDetectorTest {

  private static Events run(String method) {
    return EngineTestKit.engine("junit-jupiter")
        .configurationParameter("junit.jupiter.extensions.store.close.autocloseable.enabled", "false")
        .selectors(selectMethod(ConfinementScenarios.class, method,
            "io.vertx.core.Vertx,io.vertx.junit5.VertxTestContext"))
        .execute().testEvents();
  }

  private static void assertViolation(String method, String... fragments) {
    Events events = run(method);
    List<Event> failed = events.failed().list();
    assertEquals(1, failed.size(), method + " should have failed, but: " + events.list());
    Throwable failure = failed.get(0).getPayload(org.junit.platform.engine.TestExecutionResult.class).orElseThrow()
        .getThrowable().orElseThrow();
    assertInstanceOf(ViolationError.class, failure, "expected the guard's error, got " + failure);
    assertTrue(failure.getMessage().startsWith("State touched off the verticle's context: "), failure.getMessage());
    for (String fragment : fragments) {
      assertTrue(failure.getMessage().contains(fragment),
          "message should mention '" + fragment + "': " + failure.getMessage());
    }
  }

  private static void assertPasses(String method) {
    Events events = run(method);
    assertEquals(1, events.succeeded().count(), method + " should pass, but: " + events.failed().list());
  }

  @Test
  @DisplayName("a field written on a plain thread is named with the thread, the line and the verticle's event loop")
  void plainThreadWrite() {
    assertViolation("touchesFieldOnPlainThread",
        "CountsOnPlainThread.visits was written by a lambda in start() at ConfinedVerticles.java:",
        "(thread directory-client-1)", "the verticle belongs to its event loop, vert.x-eventloop-thread-",
        "no Vert.x context");
  }

  @Test
  @DisplayName("a field written inside executeBlocking is reported, though the worker carries the verticle's context")
  void workerWrite() {
    assertViolation("touchesFieldOnWorker", "CountsOnWorker.visits was written by a lambda in start()",
        "(thread vert.x-worker-thread-", "not on its event loop");
  }

  @Test
  @DisplayName("a field written on a CompletableFuture's thread is reported")
  void completableFutureWrite() {
    assertViolation("touchesFieldOnCompletableFuture", "CountsOnCompletableFuture.visits was written",
        "and this thread was on no Vert.x context");
  }

  @Test
  @DisplayName("a HashMap read inside executeBlocking (and changed there) is reported as a read of a HashMap")
  void mapReadOffLoop() {
    assertViolation("touchesMapOnWorker", "MapOnWorker.visits (a java.util.HashMap) was read by a lambda in start()",
        "(thread vert.x-worker-thread-");
  }

  @Test
  @DisplayName("a learner's class loaded before the guard started is rewritten too (retransformation)")
  void preloadedClass() {
    assertViolation("touchesPreloadedFieldOnWorker", "PreloadedCounter.visits was written",
        "at PreloadedCounter.java:");
  }

  @Test
  @DisplayName("a worker verticle's field written on a plain thread is reported")
  void workerVerticleOnPlainThread() {
    assertViolation("touchesWorkerVerticleFieldOnPlainThread", "WorkerVerticleCountsOnPlainThread.visits was written",
        "(thread directory-client-3)", "the verticle belongs to its worker context");
  }

  @Test
  @DisplayName("a field of the learner's own object, held by a verticle from its constructor, written on a plain "
      + "thread is reported, naming the field that holds it")
  void heldObjectOnPlainThread() {
    assertViolation("touchesHeldObjectOnPlainThread",
        "ConfinedVerticles.Tally.visits was written by add() at ConfinedVerticles.java:", "(thread directory-client-5)",
        "the object is held by ConfinedVerticles.TallyOnPlainThread.tally, and the verticle belongs to its event loop");
  }

  @Test
  @DisplayName("a field of the learner's own object, made in start(), written inside executeBlocking is reported")
  void heldObjectOnWorker() {
    assertViolation("touchesHeldObjectOnWorker", "ConfinedVerticles.Tally.visits was written by add()",
        "(thread vert.x-worker-thread-", "the object is held by ConfinedVerticles.TallyOnWorker.tally");
  }

  @Test
  @DisplayName("an object made and changed on a worker, then handed to the context as executeBlocking's result, is "
      + "not reported")
  void objectMadeOnAWorkerIsQuiet() {
    assertPasses("handsOverAnObjectMadeOnAWorker");
  }

  @Test
  @DisplayName("an object of the learner's that two verticles on two event loops share on purpose, under a lock, is "
      + "not reported")
  void sharedObjectIsQuiet() {
    assertPasses("sharesALockedObjectBetweenTwoEventLoops");
  }

  @Test
  @DisplayName("a result handed back with context.runOnContext is not reported")
  void runOnContextIsQuiet() {
    assertPasses("handsBackWithRunOnContext");
  }

  @Test
  @DisplayName("the event bus, executeBlocking's result used on the loop, config read on a worker, and the test's own "
      + "read of a list from its own context are not reported")
  void eventBusAndExecuteBlockingAreQuiet() {
    assertPasses("countsOnItsContext");
  }

  @Test
  @DisplayName("Future.fromCompletionStage(stage, context) continues on the context: not reported")
  void fromCompletionStageIsQuiet() {
    assertPasses("continuesOnContextWithFromCompletionStage");
  }

  @Test
  @DisplayName("ConcurrentHashMap, AtomicLong and volatile fields used from a worker are not reported")
  void threadSafeStateIsQuiet() {
    assertPasses("keepsThreadSafeStateOnWorker");
  }

  @Test
  @DisplayName("an HTTP handler and a setPeriodic handler (duplicate contexts) and the test's own reads are quiet")
  void duplicateContextsAreQuiet() {
    assertPasses("countsInHttpHandlerAndPeriodicTimer");
  }

  @Test
  @DisplayName("a worker verticle whose tasks run on several worker threads is not reported")
  void workerVerticleIsQuiet() {
    assertPasses("countsInWorkerVerticle");
  }

  @Test
  @DisplayName("a virtual-thread verticle whose tasks run on several virtual threads is not reported")
  void virtualThreadVerticleIsQuiet() {
    Assumptions.assumeTrue(Runtime.version().feature() >= 21, "virtual threads need JDK 21");
    assertPasses("countsInVirtualThreadVerticle");
  }
}
