package io.looplab.cli.commands;

import io.looplab.cli.engine.Exercise;
import io.looplab.cli.engine.Kit;
import io.looplab.cli.engine.Results;
import io.looplab.report.ExerciseResult;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** The footer of {@code lab check}: what to do next, for the way this grading ended. */
final class NextStep {

  private NextStep() {
  }

  static List<String> after(Kit kit, Results results, Exercise exercise, ExerciseResult report, Path outputLog) {
    String id = exercise.id();
    String again = "./lab check " + id;
    return switch (report.status()) {
      case COMPILE_ERROR -> List.of("Your code does not compile, so no test ran. Fix the first compiler error above, "
          + "then run " + again + " again.");
      case TIMEOUT -> List.of("The tests ran past their time limit: something never completed (a future, a reply, a "
          + "response) or never stopped (a loop). The message above names the test that was running.",
          "What your code printed: " + outputLog + ". Fix it, then run " + again + " again.");
      case CRASHED -> List.of("The test JVM ended before the tests did: System.exit, Runtime.halt or running out of "
          + "memory ends it. The message above says how it ended.",
          "What your code printed: " + outputLog + ". Fix it, then run " + again + " again.");
      case ERROR -> List.of("Not graded: the grader, or a machine too busy, failed before the tests could judge your "
          + "code (the message above says what). It was graded twice; run " + again + " again, on a quieter machine "
          + "if you can. No point was lost for it.");
      case FAILED -> List.of("Fix the first ✗ above, then run " + again + " again. Stuck? ./lab hint " + id);
      case PASSED -> fullMarks(kit, results, exercise);
    };
  }

  private static List<String> fullMarks(Kit kit, Results results, Exercise exercise) {
    Optional<Exercise> next = results.nextNotDone(exercise);
    String compare = "Compare with the reference: ./lab solution " + exercise.id();
    return next.map(n -> List.of("Full marks. " + compare + ".", "Next: ./lab check " + n.id() + "   ("
            + whyThisOne(kit, exercise, n) + "read exercises/" + n.id() + "/README.md)"))
        .orElse(List.of("Full marks, and every exercise of the kit is done. " + compare + "."));
  }

  /**
   * Nothing when the next exercise is the one right after; otherwise why the kit points back (an earlier one is not
   * done) or skips ahead (the ones between are).
   */
  private static String whyThisOne(Kit kit, Exercise done, Exercise next) {
    int gap = kit.exercises().indexOf(next) - kit.exercises().indexOf(done);
    if (gap == 1) {
      return "";
    }
    return gap < 0 ? "the first one not done yet: " : "the next one not done yet: ";
  }
}
