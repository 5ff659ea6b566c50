package io.looplab.grader.internal.scoring;

import io.looplab.grader.internal.guard.PendingNote;
import io.looplab.grader.testkit.Await;
import io.looplab.report.MessageLimit;
import io.looplab.report.TestResult;
import io.looplab.report.TestStatus;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A report line for a test that ran out of time carries what was still pending, after the test's own words. */
class FailureMessagesTest {

  private static final String NOTE = " Still pending when the time ran out: the HTTP request GET /late, waiting 1.5 s "
      + "for its response.";

  @Test
  @DisplayName("a late Await: its own message, then what was pending")
  void lateAwaitGetsTheNote() {
    Await.Late late = new Await.Late("ada's booking got no answer.");
    late.addSuppressed(new PendingNote(NOTE));
    String line = FailureMessages.describe(late, "io.looplab.x.SomeTest");
    assertTrue(line.startsWith("ada's booking got no answer." + NOTE), line);
    assertEquals("failed", FailureMessages.status(late));
  }

  @Test
  @DisplayName("a context that timed out: the kit's words for it, then what was pending")
  void contextTimeoutGetsTheNote() {
    TimeoutException timeout = new TimeoutException("The test execution timed out. Make sure your asynchronous code "
        + "includes calls to either VertxTestContext#completeNow()");
    timeout.addSuppressed(new PendingNote(NOTE));
    String line = FailureMessages.describe(timeout, "io.looplab.x.SomeTest");
    assertTrue(line.startsWith("No result within the test's time limit") && line.contains("ends the response." + NOTE),
        line);
    assertEquals("timeout", FailureMessages.status(timeout));
  }

  @Test
  @DisplayName("a long failure is cut once, by the report's rule, and the mark counts exactly what was cut")
  void longFailureIsCutOnce() {
    String text = "x".repeat(3_000);
    String described = FailureMessages.describe(new AssertionError(text), "io.looplab.x.SomeTest");
    assertTrue(described.startsWith(text), "the whole failure reaches the report's rule, uncut");
    TestResult test = TestResult.pending("k", "a test", 1).recorded(TestStatus.FAILED, described);
    int kept = MessageLimit.MAX_MESSAGE;
    assertEquals(described.substring(0, kept) + " … [truncated: " + (described.length() - kept)
        + " more characters]", test.message());
  }
}
