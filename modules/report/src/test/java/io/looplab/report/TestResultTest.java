package io.looplab.report;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TestResultTest {

  private static final TestResult PENDING = TestResult.pending("[engine:junit-jupiter]/[class:T]/[method:adds()]",
      "adds two numbers", 3);

  @Test
  @DisplayName("points are all or nothing: max when passed, else 0")
  void pointsAreAllOrNothing() {
    assertEquals(0, PENDING.points());
    assertEquals(3, PENDING.recorded(TestStatus.PASSED, null).points());
    assertEquals(0, PENDING.recorded(TestStatus.FAILED, "why").points());
  }

  @Test
  @DisplayName("a test with several invocations keeps its first failure; a pass is overwritten by a failure")
  void firstFailureIsKept() {
    TestResult failed = PENDING.recorded(TestStatus.PASSED, null).recorded(TestStatus.FAILED, "first");
    assertSame(failed, failed.recorded(TestStatus.FAILED, "second"));
    assertSame(failed, failed.recordedNotGraded("the grader broke"));
    assertEquals("first", failed.message());
    assertEquals(TestStatus.PENDING, PENDING.status(), "the original is unchanged");
  }

  @Test
  @DisplayName("not graded: status error, the reason marked, and flagged as the grader's failure")
  void notGraded() {
    TestResult t = PENDING.recordedNotGraded("the warm-up ran out of time");
    assertEquals(TestStatus.ERROR, t.status());
    assertEquals("Not graded: the warm-up ran out of time", t.message());
    assertTrue(t.notGraded());
    assertFalse(PENDING.recorded(TestStatus.ERROR, "the code threw").notGraded());
  }

  @Test
  @DisplayName("every way to build a test caps its message")
  void everyMessageIsCapped() {
    String runaway = "z".repeat(100_000);
    assertEquals(MessageLimit.capped(runaway), PENDING.recorded(TestStatus.FAILED, runaway).message());
    assertEquals(MessageLimit.capped("Not graded: " + runaway), PENDING.recordedNotGraded(runaway).message());
    assertEquals(MessageLimit.capped(runaway),
        new TestResult("k", "n", 1, TestStatus.FAILED, runaway, false).message());
  }

  @Test
  @DisplayName("a test method is recognised as a plain test, a test factory or a parameterized test")
  void isMethod() {
    assertTrue(PENDING.isMethod("adds"));
    assertFalse(PENDING.isMethod("add"));
    assertTrue(TestResult.pending("[class:T]/[test-factory:many()]", "many", 1).isMethod("many"));
    assertTrue(TestResult.pending("[class:T]/[test-template:each(int)]", "each", 1).isMethod("each"));
  }
}
