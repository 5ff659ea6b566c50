package io.looplab.grader.internal.scoring;

import io.looplab.grader.GraderFault;
import io.looplab.grader.Points;
import io.looplab.report.ExerciseResult;
import io.looplab.report.TestResult;
import io.looplab.report.TestStatus;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Scores a test run and hands the exercise's report to the kit, after every test. Registered through ServiceLoader like JUnit's own optional
 * listeners, and off unless the configuration parameter {@value #REPORT_FILE} names the file to write.
 *
 * <p>A graded test is a test method: its points come from {@link Points}. A test factory or a parameterized test
 * is graded as one test, passed only when all its invocations pass.
 *
 * <p>The report grows as the tests run: each test's latest result is kept here, by key, and every hand-over is an
 * immutable {@link ExerciseResult} of the results so far.
 */
public final class ScoringListener implements TestExecutionListener {

  public static final String REPORT_FILE = "looplab.report.file";
  public static final String EXERCISE_ID = "looplab.exercise.id";
  public static final String EXERCISE_TITLE = "looplab.exercise.title";

  private Path reportFile;
  private TestPlan plan;
  private String exerciseId;
  private String exerciseTitle;
  private String running;
  private boolean finished;
  /** Every graded test's result so far, by key, in the plan's order. */
  private final Map<String, TestResult> byKey = new LinkedHashMap<>();

  @Override
  public void testPlanExecutionStarted(TestPlan testPlan) {
    Optional<String> file = testPlan.getConfigurationParameters().get(REPORT_FILE);
    if (file.isEmpty()) {
      return;
    }
    reportFile = Path.of(file.get());
    plan = testPlan;
    // A serving JVM runs one plan after another with this listener (see GradingJvm.Mode.SERVE).
    byKey.clear();
    running = null;
    finished = false;
    for (TestIdentifier root : testPlan.getRoots()) {
      collectGradedTests(root);
    }
    exerciseId = testPlan.getConfigurationParameters().get(EXERCISE_ID).orElse("exercise");
    exerciseTitle = testPlan.getConfigurationParameters().get(EXERCISE_TITLE).orElse(exerciseId);
    write();
  }

  private void collectGradedTests(TestIdentifier node) {
    Optional<MethodSource> method = node.getSource().filter(MethodSource.class::isInstance).map(MethodSource.class::cast);
    if (method.isPresent()) {
      byKey.put(node.getUniqueId(), TestResult.pending(node.getUniqueId(), node.getDisplayName(),
          pointsOf(method.get())));
      return; // invocations below a method belong to it
    }
    for (TestIdentifier child : plan.getChildren(node)) {
      collectGradedTests(child);
    }
  }

  private static int pointsOf(MethodSource source) {
    try {
      Method m = source.getJavaMethod();
      Points points = m.getAnnotation(Points.class);
      return points == null ? 1 : points.value();
    } catch (RuntimeException e) {
      return 1;
    }
  }

  /** Whether this run writes a report: the configuration named a file (see {@link #REPORT_FILE}). */
  private boolean isScoring() {
    return reportFile != null;
  }

  @Override
  public void executionStarted(TestIdentifier id) {
    if (isScoring() && byKey.containsKey(id.getUniqueId())) {
      running = id.getDisplayName();
      write();
    }
  }

  @Override
  public void executionSkipped(TestIdentifier id, String reason) {
    if (!isScoring()) {
      return;
    }
    gradedTestOf(id).ifPresent(key -> byKey.compute(key, (k, t) -> t.recorded(TestStatus.SKIPPED, reason)));
    write();
  }

  @Override
  public void executionFinished(TestIdentifier id, TestExecutionResult result) {
    if (!isScoring()) {
      return;
    }
    Optional<String> graded = gradedTestOf(id);
    if (graded.isPresent()) {
      byKey.compute(graded.get(), (key, test) -> recorded(test, id, result));
      if (byKey.containsKey(id.getUniqueId())) {
        running = null;
      }
    } else if (result.getStatus() != TestExecutionResult.Status.SUCCESSFUL) {
      // A class that failed to set up (or to tear down): its tests that never ran were not graded. A graded test
      // class sets up only the grader's own machinery (the guard, a warm-up with the test's own code), never the
      // learner's, so this is the grader's or the machine's failure: an error, never lost points.
      String reason = result.getThrowable().map(ScoringListener::inWords).orElse("no reason given");
      for (TestIdentifier child : plan.getDescendants(id)) {
        TestResult t = byKey.get(child.getUniqueId());
        if (t != null && t.isPending()) {
          byKey.put(child.getUniqueId(), t.recordedNotGraded("the test class " + simpleName(classNameOf(id))
              + " could not set up its tests (" + reason + "). This is a failure of the grader or of a machine too "
              + "busy, not of your code."));
        }
      }
    }
    write();
  }

  private TestResult recorded(TestResult test, TestIdentifier id, TestExecutionResult result) {
    return switch (result.getStatus()) {
      case SUCCESSFUL -> test.recorded(TestStatus.PASSED, null);
      case ABORTED -> test.recorded(TestStatus.SKIPPED,
          result.getThrowable().map(Throwable::getMessage).orElse("aborted"));
      case FAILED -> {
        Throwable failure = result.getThrowable().orElse(new AssertionError("failed"));
        Optional<GraderFault> fault = GraderFault.in(failure);
        yield fault.isPresent() ? test.recordedNotGraded(fault.get().getMessage())
            : test.recorded(TestStatus.of(FailureMessages.status(failure)),
                FailureMessages.describe(failure, classNameOf(id)));
      }
    };
  }

  private static String inWords(Throwable failure) {
    return failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage();
  }

  private static String simpleName(String className) {
    return className.substring(className.lastIndexOf('.') + 1);
  }

  private String classNameOf(TestIdentifier id) {
    for (Optional<TestIdentifier> node = Optional.of(id); node.isPresent(); node = plan.getParent(node.get())) {
      Optional<String> name = node.get().getSource().flatMap(s -> s instanceof MethodSource m
          ? Optional.of(m.getClassName()) : s instanceof ClassSource c ? Optional.of(c.getClassName()) : Optional.empty());
      if (name.isPresent()) {
        return name.get();
      }
    }
    return "";
  }

  /** The key of the graded test that {@code id} is, or belongs to. */
  private Optional<String> gradedTestOf(TestIdentifier id) {
    for (Optional<TestIdentifier> node = Optional.of(id); node.isPresent(); node = plan.getParent(node.get())) {
      String key = node.get().getUniqueId();
      if (byKey.containsKey(key)) {
        return Optional.of(key);
      }
    }
    return Optional.empty();
  }

  @Override
  public void testPlanExecutionFinished(TestPlan testPlan) {
    if (isScoring()) {
      finished = true;
      write();
    }
  }

  /** To the kit, signed, when it gave a key; else (a plan listing, the grader's own tests) to the report file. */
  private void write() {
    ExerciseResult report = ExerciseResult.of(exerciseId, exerciseTitle, List.copyOf(byKey.values()));
    InFlightReport now = new InFlightReport(report, running, finished);
    if (VerdictChannel.isOpen()) {
      VerdictChannel.send(reportFile, now);
    } else {
      now.write(reportFile);
    }
  }
}
