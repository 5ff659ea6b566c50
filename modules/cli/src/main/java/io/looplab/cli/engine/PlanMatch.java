package io.looplab.cli.engine;

import io.looplab.report.ExerciseResult;
import io.looplab.report.TestResult;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Whether a grading JVM's report is a report of the exercise's plan: the same tests (or those asked for), each with
 * its name and maximum. The plan is listed by the kit from its original stub and tests, with none of the learner's
 * code; a report that differs from it is no verdict of the grader's, whatever it says.
 */
final class PlanMatch {

  private PlanMatch() {
  }

  /** Why {@code reported} is not a report of {@code plan} run with {@code onlyTests} (all when empty), or empty. */
  static Optional<String> mismatch(ExerciseResult plan, ExerciseResult reported, List<String> onlyTests) {
    if (!plan.id().equals(reported.id())) {
      return Optional.of("a verdict about another exercise (" + reported.id() + ")");
    }
    Map<String, TestResult> planned = only(plan, onlyTests).tests().stream()
        .collect(Collectors.toMap(TestResult::key, Function.identity()));
    Set<String> seen = new HashSet<>();
    for (TestResult test : reported.tests()) {
      TestResult expected = planned.get(test.key());
      if (expected == null || !seen.add(test.key())) {
        return Optional.of("a verdict on a test the exercise does not have, or has once (" + test.name() + ")");
      }
      if (expected.max() != test.max() || !expected.name().equals(test.name())) {
        return Optional.of("a verdict on '" + test.name() + "' worth " + test.max() + " points, which the exercise's "
            + "test '" + expected.name() + "' is worth " + expected.max());
      }
    }
    if (seen.size() != planned.size()) {
      return Optional.of("a verdict on " + seen.size() + " of the exercise's " + planned.size() + " tests");
    }
    return Optional.empty();
  }

  /** The plan cut to the test methods named in {@code onlyTests} (the whole plan when it is empty). */
  static ExerciseResult only(ExerciseResult plan, List<String> onlyTests) {
    if (onlyTests.isEmpty()) {
      return plan;
    }
    return ExerciseResult.of(plan.id(), plan.title(), plan.tests().stream()
        .filter(t -> onlyTests.stream().anyMatch(m -> t.isMethod(m.trim()))).toList());
  }
}
