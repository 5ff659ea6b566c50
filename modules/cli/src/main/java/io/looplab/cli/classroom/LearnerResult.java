package io.looplab.cli.classroom;

import io.looplab.cli.engine.Scoreboard;
import io.looplab.report.ExerciseResult;

import java.util.Optional;

/**
 * What grading one learner's folder gave: their scoreboard, or why their folder could not be graded at all (then
 * {@code board} is null). A broken submission is still a row of the class, never a stop of the whole grading.
 */
public record LearnerResult(String learner, Scoreboard board, String problem, long millis) {

  static LearnerResult graded(String learner, Scoreboard board, long millis) {
    return new LearnerResult(learner, board, null, millis);
  }

  static LearnerResult notGraded(String learner, String problem, long millis) {
    return new LearnerResult(learner, null, problem, millis);
  }

  public boolean isGraded() {
    return board != null;
  }

  /** This learner's report of {@code exerciseId}, if they were graded on it. */
  public Optional<ExerciseResult> exercise(String exerciseId) {
    return board == null ? Optional.empty()
        : board.exercises().stream().filter(e -> e.id().equals(exerciseId)).findFirst();
  }
}
