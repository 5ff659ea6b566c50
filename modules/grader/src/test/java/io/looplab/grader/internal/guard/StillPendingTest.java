package io.looplab.grader.internal.guard;

import io.looplab.grader.fixtures.PendingScenarios;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

/** A test that runs out of time says what was still pending: which request, which lock, which call, which task. */
class StillPendingTest {

  private static Throwable failureOf(String method, String parameters) {
    List<Event> failed = EngineTestKit.engine("junit-jupiter")
        .configurationParameter("junit.jupiter.extensions.store.close.autocloseable.enabled", "false")
        .selectors(selectMethod(PendingScenarios.class, method, parameters))
        .execute().testEvents().failed().list();
    assertEquals(1, failed.size(), method + " should have failed once");
    return failed.get(0).getPayload(TestExecutionResult.class).orElseThrow().getThrowable().orElseThrow();
  }

  private static void assertMentions(String text, String... fragments) {
    for (String fragment : fragments) {
      assertTrue(text.contains(fragment), "should mention '" + fragment + "':\n" + text);
    }
  }

  @Test
  @DisplayName("when a test's context times out, its report names the HTTP request nobody answered, and only that one")
  void contextTimeoutNamesTheUnansweredRequest() {
    Throwable failure = failureOf("contextTimesOutWithARequestUnanswered",
        "io.vertx.core.Vertx,io.vertx.junit5.VertxTestContext");
    String note = PendingNote.in(failure);
    assertMentions(note, StillPending.LEAD, "the HTTP request GET /late, waiting ", " s for its response");
    assertFalse(note.contains("/ok"), "GET /ok was answered:\n" + note);
  }

  @Test
  @DisplayName("a late Await names the event-bus request with no reply, the lock held and waited for, the call the "
      + "test holds back, and the worker task with its line")
  void lateAwaitNamesEverythingPending() {
    Throwable failure = failureOf("awaitIsLateWithEverythingPending", "io.vertx.core.Vertx");
    assertEquals("ada's booking got no answer.", failure.getMessage());
    String note = PendingNote.in(failure);
    assertMentions(note, StillPending.LEAD,
        "the event-bus request to 'book' (body ada), waiting ",
        "the local lock 'seat-7' (with 1 caller(s) waiting for it)",
        "the call with bob from ", "Forgetful.java:", "whose answer the test had not released",
        "a task in the worker pool 'vert.x-worker-thread', running for ", "waitInAWorker");
    assertFalse(note.contains("answered)"), "the echo request was answered:\n" + note);
  }

  @Test
  @DisplayName("with nothing pending, a late Await's message is the test's own, with no census added")
  void nothingPendingAddsNothing() {
    Throwable failure = failureOf("awaitIsLateWithNothingElsePending", "io.vertx.core.Vertx");
    assertEquals("the promise was never completed.", failure.getMessage());
    assertEquals("", PendingNote.in(failure));
  }
}
