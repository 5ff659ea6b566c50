package io.looplab.report;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ExerciseResultTest {

  private static final TestResult A = TestResult.pending("[method:a()]", "a", 2);
  private static final TestResult B = TestResult.pending("[method:b()]", "b", 3);
  private static final TestResult C = TestResult.pending("[method:c()]", "c", 5);

  private static ExerciseResult with(TestResult... tests) {
    return ExerciseResult.of("00-sample", "Sample", List.of(tests));
  }

  private static List<TestStatus> statuses(ExerciseResult r) {
    return r.tests().stream().map(TestResult::status).toList();
  }

  @Test
  @DisplayName("points, max and status are derived from the tests")
  void derivedFromTheTests() {
    ExerciseResult some = with(A.recorded(TestStatus.PASSED, null), B.recorded(TestStatus.FAILED, "why"), C);
    assertEquals(2, some.points());
    assertEquals(10, some.max());
    assertEquals(ExerciseStatus.FAILED, some.status());
    assertFalse(some.isComplete());
    ExerciseResult all = with(A.recorded(TestStatus.PASSED, null), B.recorded(TestStatus.PASSED, null));
    assertEquals(ExerciseStatus.PASSED, all.status());
    assertTrue(all.isComplete());
    assertEquals(ExerciseStatus.FAILED, with().status(), "no marks to get is no pass");
    assertNull(all.message());
  }

  @Test
  @DisplayName("a test not graded makes the exercise not graded, with its reason as the exercise's message")
  void notGradedTestMakesTheExerciseAnError() {
    ExerciseResult r = with(A.recorded(TestStatus.PASSED, null), B.recordedNotGraded("the fixture broke."), C);
    assertTrue(r.isNotGraded());
    assertEquals(ExerciseStatus.ERROR, r.status());
    assertEquals("Not graded: the fixture broke. The kit graded it twice when it could; this is no lost point of "
        + "the code's.", r.message());
  }

  @Test
  @DisplayName("every test not graded, for a reason the kit gives; a failure the code earned stays")
  void notGradedBecause() {
    ExerciseResult r = with(A.recorded(TestStatus.FAILED, "lost"), B).notGradedBecause("an unbelievable verdict");
    assertEquals(List.of(TestStatus.FAILED, TestStatus.ERROR), statuses(r));
    assertEquals("Not graded: an unbelievable verdict", r.tests().get(1).message());
    assertEquals(ExerciseStatus.ERROR, r.status());
  }

  @Test
  @DisplayName("a note goes before any note already there; the original is unchanged")
  void notesPile() {
    ExerciseResult plain = with(A);
    ExerciseResult noted = plain.withNote("second").withNote("first");
    assertEquals("first second", noted.message());
    assertNull(plain.message());
  }

  @Test
  @DisplayName("a time limit blames the running test, skips the rest and keeps earlier points")
  void timeLimitBlamesTheRunningTest() {
    ExerciseResult r = with(A.recorded(TestStatus.PASSED, null), B, C).stoppedAtTimeLimit(90, "b", null);
    assertEquals(List.of(TestStatus.PASSED, TestStatus.TIMEOUT, TestStatus.SKIPPED), statuses(r));
    assertEquals(ExerciseStatus.TIMEOUT, r.status());
    assertEquals(2, r.points());
    assertEquals(10, r.max());
    assertEquals("Stopped after 90 s while running 'b'.", r.message());
    assertTrue(r.tests().get(1).message().contains("an endless loop, or a wait"), r.tests().get(1).message());
    assertEquals("Not run: the exercise was stopped before this test.", r.tests().get(2).message());
  }

  @Test
  @DisplayName("a time limit says where the test's thread was, when the grading JVM could tell")
  void timeLimitSaysWhereTheTestWas() {
    ExerciseResult r = with(A, B).stoppedAtTimeLimit(90, "a", "still running your code, add() at Adder.java:3");
    assertEquals("Did not finish within the exercise's time limit of 90 s, so the grader stopped it. When it "
        + "stopped, the test's thread was still running your code, add() at Adder.java:3", r.tests().get(0).message());
  }

  @Test
  @DisplayName("a crash with no test running blames the first pending test, and says what was dropped")
  void crashBlamesTheFirstPendingTest() {
    ExerciseResult r = with(A.recorded(TestStatus.PASSED, null), B, C).crashed(3, 42, Path.of("out.log"), null);
    assertEquals(List.of(TestStatus.PASSED, TestStatus.ERROR, TestStatus.SKIPPED), statuses(r));
    assertEquals(ExerciseStatus.CRASHED, r.status());
    assertEquals("The test JVM stopped (exit status 3); 42 bytes of output were dropped. Output: out.log", r.message());
    assertTrue(r.tests().get(1).message().startsWith("The test JVM stopped during this test (exit status 3)"));
  }

  @Test
  @DisplayName("a crash of code that calls System.exit names the call's line instead of asking")
  void crashNamesTheExitCall() {
    ExerciseResult r = with(A, B).crashed(0, 0, Path.of("out.log"), B.name(), List.of("System.exit at Adder.java:12"));
    String blamed = r.tests().get(1).message();
    assertEquals("The test JVM stopped during this test (exit status 0). Your code calls System.exit at Adder.java:12: "
        + "that ends the whole JVM, and the tests with it. Return, or fail a future, instead. Its output is in out.log.",
        blamed);
  }

  @Test
  @DisplayName("a compile error loses every test with the reason, and max stays")
  void compileErrorLosesEveryTest() {
    ExerciseResult r = with(A, B, C).withNote("a note the error replaces")
        .failedToCompile("Your code does not compile: X.java:3: ';' expected");
    assertEquals(ExerciseStatus.COMPILE_ERROR, r.status());
    assertEquals(0, r.points());
    assertEquals(10, r.max());
    assertEquals("Your code does not compile: X.java:3: ';' expected", r.message());
    assertTrue(r.tests().stream().allMatch(t -> t.message().startsWith("Not graded: Your code does not compile")));
    assertFalse(r.isComplete());
  }

  @Test
  @DisplayName("a fixed status wins over the tests, and a result's tests cannot be changed")
  void fixedStatusAndImmutableTests() {
    ExerciseResult r = new ExerciseResult("x", "X", List.of(B.recordedNotGraded("why")), ExerciseStatus.CRASHED,
        "it stopped");
    assertEquals(ExerciseStatus.CRASHED, r.status());
    assertFalse(r.isNotGraded(), "a rewrite's status says what happened to the whole exercise");
    assertThrows(UnsupportedOperationException.class, () -> r.tests().add(A));
  }
}
