package io.looplab.report;

import java.util.Objects;

/**
 * One graded test in a report: all or nothing, with the message that explains a loss. Its {@code key} is JUnit's
 * unique id of the test method, which tells tests apart inside the kit; the report contract does not carry it.
 * {@code notGraded}: the grader or the machine failed before the test could judge the code (status error, never a
 * lost point). Every message is {@link MessageLimit#capped capped} here, whoever builds the record.
 */
public record TestResult(String key, String name, int max, TestStatus status, String message, boolean notGraded) {

  public TestResult {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(status, "status");
    message = MessageLimit.capped(message);
  }

  /** A test that has not ended yet. */
  public static TestResult pending(String key, String name, int max) {
    return new TestResult(key, name, max, TestStatus.PENDING, null, false);
  }

  public int points() {
    return passed() ? max : 0;
  }

  public boolean isPending() {
    return status == TestStatus.PENDING;
  }

  public boolean passed() {
    return status == TestStatus.PASSED;
  }

  /** Whether this is the test method {@code method} (a plain test, a test factory or a parameterized test). */
  public boolean isMethod(String method) {
    return key.contains("[method:" + method + "(") || key.contains("[test-factory:" + method + "(")
        || key.contains("[test-template:" + method + "(");
  }

  /**
   * This test with an outcome. A test with several invocations keeps its first failure: once it failed, a later
   * outcome leaves it as it is.
   */
  public TestResult recorded(TestStatus newStatus, String newMessage) {
    return isPending() || passed() ? new TestResult(key, name, max, newStatus, newMessage, false) : this;
  }

  /**
   * This test as one the grader, not the code, failed: a harness step (a warm-up, the test's own fixture) ran out of
   * time or broke. Status error, with {@code reason}; the kit grades such an exercise again. A failure the code
   * already earned stays, as with {@link #recorded}.
   */
  public TestResult recordedNotGraded(String reason) {
    return isPending() || passed()
        ? new TestResult(key, name, max, TestStatus.ERROR, "Not graded: " + reason, true) : this;
  }
}
