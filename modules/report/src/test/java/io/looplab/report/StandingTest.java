package io.looplab.report;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class StandingTest {

  private static final TestResult A = TestResult.pending("[method:a()]", "a", 2);
  private static final TestResult B = TestResult.pending("[method:b()]", "b", 3);

  private static ExerciseResult graded(TestStatus a, TestStatus b) {
    return ExerciseResult.of("00-sample", "Sample", List.of(A.recorded(a, null), B.recorded(b, null)));
  }

  @Test
  @DisplayName("points tell full marks, partial and failing apart")
  void byPoints() {
    assertEquals(Standing.FULL_MARKS, Standing.of(graded(TestStatus.PASSED, TestStatus.PASSED), false));
    assertEquals(Standing.PARTIAL, Standing.of(graded(TestStatus.PASSED, TestStatus.FAILED), false));
    assertEquals(Standing.FAILING, Standing.of(graded(TestStatus.FAILED, TestStatus.FAILED), false));
  }

  @Test
  @DisplayName("an untouched stub, or no result at all, is not started, whatever points the stub earns")
  void untouchedIsNotStarted() {
    assertEquals(Standing.NOT_STARTED, Standing.of(graded(TestStatus.PASSED, TestStatus.FAILED), true));
    assertEquals(Standing.NOT_STARTED, Standing.of(graded(TestStatus.FAILED, TestStatus.FAILED), true));
    assertEquals(Standing.NOT_STARTED, Standing.of(null, false));
  }

  @Test
  @DisplayName("a grading that ended early says how, attempted or not: compile error, crash, time-out, grader error")
  void howItEnded() {
    ExerciseResult run = graded(TestStatus.PASSED, TestStatus.FAILED);
    assertEquals(Standing.COMPILE_ERROR, Standing.of(run.failedToCompile("X.java:3: ';' expected"), false));
    assertEquals(Standing.CRASHED, Standing.of(run.crashed(1, 0, Path.of("out.log"), "b"), false));
    assertEquals(Standing.TIMED_OUT, Standing.of(run.stoppedAtTimeLimit(90, "b", null), false));
    assertEquals(Standing.GRADER_ERROR, Standing.of(run.notGradedBecause("the machine was too busy"), true));
  }

  @Test
  @DisplayName("each standing's word reads back as itself, and an unknown word is refused")
  void words() {
    for (Standing s : Standing.values()) {
      assertEquals(s, Standing.of(s.word()));
    }
    assertThrows(IllegalArgumentException.class, () -> Standing.of("green"));
  }
}
