package io.looplab.cli.formats;

import io.looplab.report.ExerciseResult;
import io.looplab.report.TestResult;

/** What the formats say about a test that did not pass: its own message, or else its exercise's (a compile error). */
final class LostTest {

  private LostTest() {
  }

  static String message(ExerciseResult exercise, TestResult test) {
    return test.message() != null ? test.message() : exercise.message() != null ? exercise.message()
        : "The test did not pass (" + test.status() + ").";
  }

  /** The tools' own three words for a test: pass, fail (an assertion), error (anything else that kept it from passing). */
  static String status(TestResult test) {
    return switch (test.status()) {
      case PASSED -> "pass";
      case FAILED -> "fail";
      default -> "error";
    };
  }
}
