package io.looplab.grader.internal.scoring;

import io.looplab.grader.fixtures.GuardedScenarios;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
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
    ExerciseReport r = written.report();
    assertEquals("00-sample", r.id());
    assertEquals(3, r.max());
    assertEquals(1, r.points());
    assertTrue(written.finished());
    assertEquals(ExerciseStatus.FAILED, r.status());
    TestReport sleeping = r.tests().stream().filter(t -> t.isMethod("sleepsOnEventLoop")).findFirst().orElseThrow();
    assertEquals(TestStatus.FAILED, sleeping.status());
    assertTrue(sleeping.message().contains("Thread.sleep") && sleeping.message().contains("Misbehaviour.java:"),
        sleeping.message());
  }

  @Test
  @DisplayName("without the configuration parameter, no report is written")
  void offByDefault() {
    Path report = dir.resolve("report.json");
    run(report, false);
    assertFalse(Files.exists(report));
  }
}
