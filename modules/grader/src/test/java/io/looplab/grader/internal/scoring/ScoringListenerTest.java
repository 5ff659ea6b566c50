package io.looplab.grader.internal.scoring;

import io.looplab.grader.fixtures.FixtureFaults;
import io.looplab.grader.fixtures.GuardedScenarios;
import io.looplab.grader.fixtures.SetUpFails;
import io.looplab.report.ExerciseResult;
import io.looplab.report.ExerciseStatus;
import io.looplab.report.TestResult;
import io.looplab.report.TestStatus;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

/** The listener scores by @Points, explains each loss, and stays silent unless switched on. */
class ScoringListenerTest {

  @TempDir
  Path dir;

  void run(Path report, boolean on) {
    LauncherDiscoveryRequestBuilder request = LauncherDiscoveryRequestBuilder.request().selectors(
        selectMethod(GuardedScenarios.class, "sleepsOnEventLoop", "io.vertx.core.Vertx,io.vertx.junit5.VertxTestContext"),
        selectMethod(GuardedScenarios.class, "doesQuickWorkOnEventLoop", "io.vertx.core.Vertx,io.vertx.junit5.VertxTestContext"));
    if (on) {
      request.configurationParameter(ScoringListener.REPORT_FILE, report.toString())
          .configurationParameter(ScoringListener.EXERCISE_ID, "00-sample")
          .configurationParameter(ScoringListener.EXERCISE_TITLE, "Sample");
    }
    LauncherFactory.create().execute(request.build());
  }

  @Test
  @DisplayName("a failed 2-point test scores 0 with the guard's message; a passed 1-point test scores 1")
  void scoresAndExplains() throws Exception {
    Path report = dir.resolve("report.json");
    run(report, true);
    InFlightReport written = InFlightReport.read(report).orElseThrow();
    ExerciseResult r = written.report();
    assertEquals("00-sample", r.id());
    assertEquals(3, r.max());
    assertEquals(1, r.points());
    assertTrue(written.finished());
    assertEquals(ExerciseStatus.FAILED, r.status());
    TestResult sleeping = r.tests().stream().filter(t -> t.isMethod("sleepsOnEventLoop")).findFirst().orElseThrow();
    assertEquals(TestStatus.FAILED, sleeping.status());
    assertTrue(sleeping.message().contains("Thread.sleep") && sleeping.message().contains("Misbehaviour.java:"),
        sleeping.message());
  }

  private ExerciseResult scoreClass(Class<?> testClass) throws Exception {
    Path report = dir.resolve(testClass.getSimpleName() + ".json");
    LauncherFactory.create().execute(LauncherDiscoveryRequestBuilder.request()
        .selectors(DiscoverySelectors.selectClass(testClass))
        .configurationParameter(ScoringListener.REPORT_FILE, report.toString())
        .configurationParameter(ScoringListener.EXERCISE_ID, "00-sample")
        .configurationParameter(ScoringListener.EXERCISE_TITLE, "Sample").build());
    // read back as the kit reads what the grading JVM wrote
    return InFlightReport.read(report).orElseThrow().report();
  }

  @Test
  @DisplayName("a test class whose set-up fails leaves its tests not graded: status error, no lost point, and the reason")
  void aFailedSetUpIsNotTheCodes() throws Exception {
    ExerciseResult r = scoreClass(SetUpFails.class);
    assertEquals(5, r.max());
    assertEquals(ExerciseStatus.ERROR, r.status());
    assertEquals("error", ReportJson.contract(r).getString("status"));
    assertTrue(r.isNotGraded());
    for (TestResult t : r.tests()) {
      assertEquals(TestStatus.ERROR, t.status());
      assertTrue(t.notGraded(), t.name());
      assertTrue(t.message().startsWith("Not graded: the test class SetUpFails could not set up its tests "
          + "(warmUpTheJvm() timed out after 20 seconds)"), t.message());
    }
    assertTrue(r.message().startsWith("Not graded: "), r.message());
  }

  @Test
  @DisplayName("a GraderFault from a test's own fixture is not graded; an assertion of the same class still loses its point")
  void aGraderFaultIsNotGradedButAFailureIs() throws Exception {
    ExerciseResult r = scoreClass(FixtureFaults.class);
    TestResult fixture = r.tests().stream().filter(t -> t.isMethod("fixtureDidNotStart")).findFirst().orElseThrow();
    TestResult code = r.tests().stream().filter(t -> t.isMethod("codeGotItWrong")).findFirst().orElseThrow();
    assertTrue(fixture.notGraded());
    assertEquals("Not graded: the machine was too slow to start the test's catalog server in 20 s", fixture.message());
    assertFalse(code.notGraded());
    assertEquals(TestStatus.FAILED, code.status());
    assertEquals(ExerciseStatus.ERROR, r.status(), "an exercise with a test not graded is not graded as a whole");
  }

  @Test
  @DisplayName("without the configuration parameter, no report is written")
  void offByDefault() {
    Path report = dir.resolve("report.json");
    run(report, false);
    assertFalse(Files.exists(report));
  }
}
