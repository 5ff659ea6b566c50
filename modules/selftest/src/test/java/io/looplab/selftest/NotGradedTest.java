package io.looplab.selftest;

import io.looplab.cli.engine.Kit;
import io.looplab.cli.engine.Target;
import io.looplab.grader.internal.scoring.ReportJson;
import io.looplab.report.ExerciseResult;
import io.looplab.report.ExerciseStatus;
import io.looplab.report.TestResult;
import io.looplab.report.TestStatus;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A failure of the grader is never the learner's: a graded test class whose own set-up fails (as a warm-up out of
 * time on a crowded machine does) is graded once more, and when it fails again the exercise is an error, not lost
 * points. The one-exercise kit's test gets a set-up that fails on purpose: once, or every time.
 */
@RunsInTheHandoutClone
class NotGradedTest {

  @TempDir
  static Path work;

  /** The kit's AdderTest with a set-up that fails while {@code marker} says so: "once" or "always". */
  private static Kit kitWhoseSetUpFails(String name, String mode) throws IOException {
    Kit kit = HostileKit.copyTo(work.resolve(name));
    Path marker = work.resolve(name + ".marker");
    Path test = kit.root().resolve("exercises/01-smoke/src/test/java/io/looplab/smoke/AdderTest.java");
    String source = Files.readString(test);
    String setUp = "  @BeforeAll static void warmUpTheJvm() throws Exception {\n"
        + "    java.nio.file.Path marker = java.nio.file.Path.of(\"" + marker.toString().replace("\\", "\\\\") + "\");\n"
        + "    boolean first = !java.nio.file.Files.exists(marker);\n"
        + "    java.nio.file.Files.writeString(marker, \"ran\");\n"
        + "    if (first || \"" + mode + "\".equals(\"always\")) {\n"
        + "      throw new IllegalStateException(\"warmUpTheJvm() timed out after 20 seconds\");\n"
        + "    }\n"
        + "  }\n";
    Files.writeString(test, source.replace("class AdderTest {\n", "class AdderTest {\n" + setUp));
    // two gradings in a row: a limit that a crowded machine cannot reach (30 s was, at a load of 30 on 2 cores)
    Path exercise = kit.root().resolve("exercises/01-smoke/exercise.json");
    Files.writeString(exercise, Files.readString(exercise).replaceAll("\"timeoutSeconds\"\\s*:\\s*\\d+",
        "\"timeoutSeconds\": 120"));
    return Kit.at(kit.root());
  }

  private static ExerciseResult gradeSolution(Kit kit) {
    return Gradings.withEngine(kit, engine -> engine.grade(kit.find("01-smoke"),
        Target.submission(kit, HostileKit.submissionFolder("solution")), (e, doing) -> { }));
  }

  @Test
  @DisplayName("a set-up that fails once is graded again, and correct code gets full marks")
  void aPassingFailureIsGradedAgain() throws IOException {
    ExerciseResult r = gradeSolution(kitWhoseSetUpFails("once", "once"));
    assertEquals(ExerciseStatus.PASSED, r.status(), () -> ReportJson.contract(r).encodePrettily());
    assertEquals(5, r.points());
  }

  @Test
  @DisplayName("a set-up that always fails makes the exercise an error: each test not graded, with the reason")
  void aLastingFailureIsAnErrorNotLostPoints() throws IOException {
    ExerciseResult r = gradeSolution(kitWhoseSetUpFails("always", "always"));
    assertEquals(ExerciseStatus.ERROR, r.status(), () -> ReportJson.contract(r).encodePrettily());
    assertEquals("error", ReportJson.contract(r).getString("status"));
    for (TestResult t : r.tests()) {
      assertEquals(TestStatus.ERROR, t.status(), t.name());
      assertTrue(t.message().startsWith("Not graded: the test class AdderTest could not set up its tests "
          + "(warmUpTheJvm() timed out after 20 seconds)"), t.message());
    }
    assertTrue(r.message().contains("graded it twice"), r.message());
  }
}
