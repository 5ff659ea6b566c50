package io.looplab.session;

import io.looplab.report.ExerciseResult;
import java.nio.file.Path;
import java.util.List;

/** Grades a learner's submitted exercises; the CLI supplies one built on the kit's class grading. */
public interface SubmissionGrader {
  /** Grades one learner's submitted exercises folder; called on a worker thread, may take minutes. */
  List<ExerciseResult> grade(String learnerName, Path exercisesDir) throws Exception;
}
