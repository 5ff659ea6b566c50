package io.looplab.cli.session;

import io.looplab.cli.classroom.ClassGrading;
import io.looplab.cli.classroom.ClassRoster;
import io.looplab.cli.classroom.LearnerResult;
import io.looplab.cli.engine.Exercise;
import io.looplab.cli.engine.Kit;
import io.looplab.cli.engine.Sandbox;
import io.looplab.report.ExerciseResult;
import io.looplab.session.SubmissionGrader;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

/**
 * Grades a submission that reached ./lab serve as ./lab grade --class grades one learner: the instructor's kit's
 * pristine tests, each exercise in a JVM of its own, sandboxed when this machine has bubblewrap. The session server
 * calls it on a worker, one submission at a time.
 */
public final class KitSubmissionGrader implements SubmissionGrader {

  private final Kit kit;
  private final List<Exercise> exercises;
  private final Sandbox sandbox;
  private final Consumer<LearnerResult> graded;

  /** {@code graded} hears of each learner's grading as it ends (the serve command prints a line). */
  public KitSubmissionGrader(Kit kit, List<Exercise> exercises, Sandbox sandbox, Consumer<LearnerResult> graded) {
    this.kit = kit;
    this.exercises = List.copyOf(exercises);
    this.sandbox = sandbox;
    this.graded = graded;
  }

  @Override
  public List<ExerciseResult> grade(String learnerName, Path exercisesDir) throws Exception {
    return gradeWithStandings(learnerName, exercisesDir).results();
  }

  /** The learner's results, with the exercises they left as the stub named, as --class names them. */
  @Override
  public Graded gradeWithStandings(String learnerName, Path exercisesDir) throws Exception {
    ClassRoster one = new ClassRoster(exercisesDir.getParent(),
        List.of(new ClassRoster.Learner(learnerName, exercisesDir)), List.of());
    LearnerResult result = new ClassGrading(kit, exercises, 1, sandbox).grade(one, r -> { }).get(0);
    graded.accept(result);
    if (!result.isGraded()) {
      // The server stores the submission as an error with this reason, and shows it in class.html.
      throw new IllegalStateException(result.problem());
    }
    return new Graded(result.board().exercises(), result.untouched());
  }
}
