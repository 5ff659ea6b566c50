package io.looplab.cli.classroom;

import io.looplab.cli.engine.Scoreboard;
import io.looplab.report.ExerciseResult;
import io.looplab.report.Standing;

import java.util.Optional;
import java.util.Set;

/**
 * What grading one learner's folder gave: their scoreboard, or why their folder could not be graded at all (then
 * {@code board} is null). A broken submission is still a row of the class, never a stop of the whole grading.
 * {@code untouched} names the exercises whose code is the stub as handed out (or missing, so graded as that stub):
 * the learner has not started them, whatever their tests say.
 */
public record LearnerResult(String learner, Scoreboard board, String problem, long millis, Set<String> untouched) {

  /** How a problem starts when the folder is no submission at all (rather than a grading that failed). */
  public static final String NOT_A_SUBMISSION = "not a submission: ";

  public LearnerResult {
    untouched = Set.copyOf(untouched);
  }

  public static LearnerResult graded(String learner, Scoreboard board, long millis, Set<String> untouched) {
    return new LearnerResult(learner, board, null, millis, untouched);
  }

  public static LearnerResult graded(String learner, Scoreboard board, long millis) {
    return graded(learner, board, millis, Set.of());
  }

  public static LearnerResult notGraded(String learner, String problem, long millis) {
    return new LearnerResult(learner, null, problem, millis, Set.of());
  }

  public boolean isGraded() {
    return board != null;
  }

  /** This learner's report of {@code exerciseId}, if they were graded on it. */
  public Optional<ExerciseResult> exercise(String exerciseId) {
    return board == null ? Optional.empty()
        : board.exercises().stream().filter(e -> e.id().equals(exerciseId)).findFirst();
  }

  /**
   * Where this learner stands on {@code exerciseId}: the one rule of {@link Standing}. A folder that is no
   * submission has started nothing; one whose grading failed as a whole is the grader's error on every exercise.
   */
  public Standing standing(String exerciseId) {
    if (board == null) {
      return problem != null && problem.startsWith(NOT_A_SUBMISSION) ? Standing.NOT_STARTED : Standing.GRADER_ERROR;
    }
    return exercise(exerciseId).map(r -> Standing.of(r, untouched.contains(exerciseId))).orElse(Standing.NOT_STARTED);
  }

  /** Whether the learner worked on {@code exerciseId}: graded, and not the untouched stub. */
  public boolean attempted(String exerciseId) {
    return isGraded() && exercise(exerciseId).isPresent() && !untouched.contains(exerciseId);
  }
}
