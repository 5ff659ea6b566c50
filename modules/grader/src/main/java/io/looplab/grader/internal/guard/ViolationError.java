package io.looplab.grader.internal.guard;

import org.opentest4j.AssertionFailedError;

import java.util.List;

/** The failure a guarded test ends with: the first violation in full, and a count of any others. */
public final class ViolationError extends AssertionFailedError {

  private final transient List<Violation> violations;

  ViolationError(List<Violation> violations, Throwable consequence) {
    super(describe(violations), consequence);
    this.violations = List.copyOf(violations);
    // The stack of the guard itself would only distract a learner; the message names their line.
    setStackTrace(new StackTraceElement[0]);
  }

  public List<Violation> violations() {
    return violations;
  }

  private static String describe(List<Violation> violations) {
    String first = violations.get(0).message();
    long others = violations.stream().map(Violation::where).distinct().count() - 1;
    return others <= 0 ? first : first + " (and " + others + " more place" + (others == 1 ? "" : "s") + " like it)";
  }
}
