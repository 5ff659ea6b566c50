package io.looplab.session;

import io.looplab.report.ExerciseResult;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/** Grades a learner's submitted exercises; the CLI supplies one built on the kit's class grading. */
public interface SubmissionGrader {
  /** Grades one learner's submitted exercises folder; called on a worker thread, may take minutes. */
  List<ExerciseResult> grade(String learnerName, Path exercisesDir) throws Exception;

  /**
   * As {@link #grade}, and which of the graded exercises the learner left as the kit's stub: those stand as "not
   * started" whatever they score, as in the class report. The server calls this one; a grader that cannot tell
   * (a test's) says none.
   */
  default Graded gradeWithStandings(String learnerName, Path exercisesDir) throws Exception {
    return new Graded(grade(learnerName, exercisesDir), Set.of());
  }

  /** A submission's results, and the ids of the exercises in it that are the untouched stub. */
  record Graded(List<ExerciseResult> results, Set<String> notStarted) {
    public Graded {
      results = List.copyOf(results);
      notStarted = Set.copyOf(notStarted);
    }
  }
}
