package io.looplab.selftest;

import io.looplab.report.ExerciseResult;
import org.junit.jupiter.api.Assumptions;

import java.util.ArrayList;
import java.util.List;

/**
 * The self-test compares the verdicts of two gradings of the same code (a class's row and the same code graded
 * alone, a shared JVM's job and a JVM of its own). A grading that the machine kept from judging (a time limit struck
 * while the machine starved it, a test class that could not set up) has no verdict to compare: the kit says "not
 * graded" with the reason, and that pair is left out, said aloud, rather than failed. Any other "not graded" (a
 * verdict the kit refused, say) is compared, and fails. When no pair at all could be compared, the test is aborted
 * with the reasons: the machine was too busy to check anything, which is no pass.
 */
final class NotComparable {

  private final String what;
  private final List<String> left = new ArrayList<>();
  private int compared;

  NotComparable(String what) {
    this.what = what;
  }

  /** Whether the pair can be compared; if not, remembers why. */
  boolean compare(String name, ExerciseResult first, ExerciseResult second) {
    for (ExerciseResult r : List.of(first, second)) {
      if (isTheMachines(r)) {
        left.add(name + ": " + r.message());
        return false;
      }
    }
    compared++;
    return true;
  }

  /** A report the machine kept from judging: not graded, for a reason of the machine's. */
  static boolean isTheMachines(ExerciseResult r) {
    String message = String.valueOf(r.message());
    return r.isNotGraded() && (message.contains("the machine was too busy") || message.contains("could not set up"));
  }

  /** Says which pairs were left out, and aborts the test when none was compared. */
  void report() {
    if (!left.isEmpty()) {
      System.out.println("[self-test] " + what + ": " + left.size() + " left out, not graded for the machine's "
          + "reasons: " + left);
    }
    Assumptions.assumeTrue(compared > 0, what + ": no pair could be compared, the machine was too busy: " + left);
  }
}
