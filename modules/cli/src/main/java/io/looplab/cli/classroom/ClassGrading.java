package io.looplab.cli.classroom;

import io.looplab.cli.engine.Exercise;
import io.looplab.cli.engine.GradingEngine;
import io.looplab.cli.engine.Kit;
import io.looplab.cli.engine.Sandbox;
import io.looplab.cli.engine.Scoreboard;
import io.looplab.cli.engine.Target;
import io.looplab.report.ExerciseResult;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Grades every learner of a class, {@code jobs} learners side by side. Each learner gets a grading engine of their
 * own, and each of their exercises a JVM of its own, exactly as `./lab grade --submission` on their folder: so their
 * row is the one that command would give, and a submission that hangs, exits or floods its output costs its own row
 * alone.
 */
public final class ClassGrading {

  private final Kit kit;
  private final List<Exercise> exercises;
  private final int jobs;
  private final Sandbox sandbox;
  private final UntouchedStubs stubs;

  /** {@code sandbox}: what confines each grading JVM, or null for nothing (see {@link Sandbox}). */
  public ClassGrading(Kit kit, List<Exercise> exercises, int jobs, Sandbox sandbox) {
    this.kit = kit;
    this.exercises = List.copyOf(exercises);
    this.jobs = jobs;
    this.sandbox = sandbox;
    this.stubs = new UntouchedStubs(kit, this.exercises);
  }

  /** The results in the roster's order; {@code done} hears of each learner as they finish, from a grading thread. */
  public List<LearnerResult> grade(ClassRoster roster, Consumer<LearnerResult> done) throws InterruptedException {
    ExecutorService pool = Executors.newFixedThreadPool(jobs, task -> {
      Thread t = new Thread(task, "lab-class-grading");
      t.setDaemon(true);
      return t;
    });
    try {
      List<Future<LearnerResult>> futures = new ArrayList<>();
      for (ClassRoster.Learner learner : roster.learners()) {
        futures.add(pool.submit(() -> {
          LearnerResult result = gradeOne(learner);
          done.accept(result);
          return result;
        }));
      }
      List<LearnerResult> results = new ArrayList<>();
      for (int i = 0; i < futures.size(); i++) {
        try {
          results.add(futures.get(i).get());
        } catch (ExecutionException e) {
          // gradeOne turns every failure into a row; this is a bug of the progress callback, and still a row
          results.add(LearnerResult.notGraded(roster.learners().get(i).name(), "grading failed: " + e.getCause(), 0));
        }
      }
      return results;
    } finally {
      pool.shutdownNow();
      pool.awaitTermination(10, TimeUnit.SECONDS);
    }
  }

  private LearnerResult gradeOne(ClassRoster.Learner learner) {
    long start = System.nanoTime();
    Optional<String> problem = Target.problemWith(kit, learner.folder());
    if (problem.isPresent()) {
      return LearnerResult.notGraded(learner.name(), LearnerResult.NOT_A_SUBMISSION + problem.get(),
          millisSince(start));
    }
    Target target = Target.submission(kit, learner.folder());
    List<ExerciseResult> reports = new ArrayList<>();
    try (GradingEngine engine = new GradingEngine(kit, false, sandbox)) {
      for (Exercise exercise : exercises) {
        reports.add(engine.grade(exercise, target, (e, doing) -> { }));
      }
    } catch (RuntimeException e) {
      // The engine reports what a submission does as results; an exception here is the grader's own trouble
      // (a full disk, say), and it stays this learner's.
      return LearnerResult.notGraded(learner.name(), "grading failed: " + e.getMessage(), millisSince(start));
    }
    // The learner's name, not their folder's path: a report is shared, and the instructor's paths are their own.
    return LearnerResult.graded(learner.name(), new Scoreboard(learner.name(), reports), millisSince(start),
        stubs.in(target, exercises));
  }

  private static long millisSince(long start) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
  }
}
