package io.looplab.cli.classroom;

import io.looplab.cli.engine.Exercise;
import io.looplab.cli.engine.Scoreboard;
import io.looplab.report.ExerciseResult;
import io.looplab.report.Standing;
import io.looplab.report.TestResult;
import io.looplab.report.TestStatus;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Made-up gradings (no grading runs) of a class of eight learners on two exercises: on ONE, each learner stands
 * differently, one per {@link Standing}; on TWO, everyone but the stub's learner has full marks.
 */
final class EveryStanding {

  static final Exercise ONE = new Exercise("01-one", "One", Path.of("01-one"), 30, List.of(), List.of(), 17);
  static final Exercise TWO = new Exercise("02-two", "Two", Path.of("02-two"), 30, List.of(), List.of(), 17);
  static final List<Exercise> EXERCISES = List.of(ONE, TWO);

  private EveryStanding() {
  }

  /** The learner's name for each standing: "learner-not-started", "learner-failing", ... */
  static String nameOf(Standing s) {
    return "learner-" + s.word();
  }

  /** A learner per standing, in the enum's order; the not-started one handed in both stubs untouched. */
  static List<LearnerResult> klass() {
    List<LearnerResult> klass = new ArrayList<>();
    for (Standing s : Standing.values()) {
      klass.add(learner(nameOf(s), one(s), s == Standing.NOT_STARTED ? Set.of(ONE.id(), TWO.id()) : Set.of()));
    }
    return klass;
  }

  static LearnerResult learner(String name, ExerciseResult one, Set<String> untouched) {
    ExerciseResult two = untouched.contains(TWO.id()) ? tests(TWO, false, false) : tests(TWO, true, true);
    return LearnerResult.graded(name, new Scoreboard(name, List.of(one, two)), 1_000, untouched);
  }

  /** ONE as a learner who stands at {@code s} would have it. */
  static ExerciseResult one(Standing s) {
    return switch (s) {
      case NOT_STARTED, FAILING -> tests(ONE, false, false);
      case PARTIAL -> tests(ONE, true, false);
      case FULL_MARKS -> tests(ONE, true, true);
      case COMPILE_ERROR -> pending(ONE).failedToCompile("Your code does not compile: Task.java:3: error: ';' expected");
      case CRASHED -> ExerciseResult.of(ONE.id(), ONE.title(), List.of(pending(ONE).tests().get(0)
          .recorded(TestStatus.PASSED, null), pending(ONE).tests().get(1))).crashed(1, 0, Path.of("out.log"), null);
      case TIMED_OUT -> pending(ONE).stoppedAtTimeLimit(30, null, null);
      case GRADER_ERROR -> pending(ONE).notGradedBecause("the warm-up ran out of time");
    };
  }

  /** Tests "a" (2 points) and "b" (3 points), passed or failed (with the message "lost a", "lost b"). */
  static ExerciseResult tests(Exercise e, boolean a, boolean b) {
    List<TestResult> plan = pending(e).tests();
    return ExerciseResult.of(e.id(), e.title(), List.of(
        a ? plan.get(0).recorded(TestStatus.PASSED, null) : plan.get(0).recorded(TestStatus.FAILED, "lost a"),
        b ? plan.get(1).recorded(TestStatus.PASSED, null) : plan.get(1).recorded(TestStatus.FAILED, "lost b")));
  }

  static ExerciseResult pending(Exercise e) {
    return ExerciseResult.of(e.id(), e.title(), List.of(TestResult.pending(e.id() + "/a", e.id() + " a", 2),
        TestResult.pending(e.id() + "/b", e.id() + " b", 3)));
  }
}
