package io.looplab.grader.testkit;

import org.opentest4j.AssertionFailedError;

/**
 * A check whose message is the whole verdict. JUnit's {@code assertTrue(condition, message)} adds
 * "expected: &lt;true&gt; but was: &lt;false&gt;" to a message that already says what was expected, what happened and
 * why it matters; this does not. The report adds the test's line the check was made at.
 */
public final class Checks {

  private Checks() {
  }

  /** Fails with {@code message} alone when {@code condition} is false. */
  public static void require(boolean condition, String message) {
    if (!condition) {
      throw new AssertionFailedError(message);
    }
  }
}
