package io.looplab.cli.engine;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a submission's src/main may not hold: the grader's packages, test-engine configuration, links out of it. */
class SubmissionCheckTest {

  @TempDir
  Path main;

  private Path write(String relative) throws IOException {
    Path file = main.resolve(relative);
    Files.createDirectories(file.getParent());
    return Files.writeString(file, "x");
  }

  @Test
  @DisplayName("an exercise's own packages, resources and links inside src/main are accepted")
  void ordinaryCodeIsAccepted() throws IOException {
    Path adder = write("java/io/looplab/smoke/Adder.java");
    write("resources/settings.json");
    Files.createSymbolicLink(main.resolve("java/io/looplab/smoke/Alias.java"), adder);
    assertEquals(Optional.empty(), SubmissionCheck.problemWith(main));
  }

  @Test
  @DisplayName("a class in the grader's or a test library's package is refused, naming the file")
  void graderPackagesAreRefused() throws IOException {
    write("java/io/looplab/grader/internal/scoring/ScoringListener.java");
    String why = SubmissionCheck.problemWith(main).orElseThrow();
    assertTrue(why.contains("src/main/java/io/looplab/grader/internal/scoring/ScoringListener.java is in "
        + "io.looplab.grader"), why);
  }

  @Test
  @DisplayName("a class in the report model's package, where it would replace the records the verdict is built of, is refused")
  void reportPackageIsRefused() throws IOException {
    write("java/io/looplab/report/TestResult.java");
    String why = SubmissionCheck.problemWith(main).orElseThrow();
    assertTrue(why.contains("src/main/java/io/looplab/report/TestResult.java is in io.looplab.report"), why);
  }

  @Test
  @DisplayName("a JUnit service file or junit-platform.properties among the resources is refused")
  void testEngineConfigurationIsRefused() throws IOException {
    write("resources/META-INF/services/org.junit.platform.launcher.TestExecutionListener");
    assertTrue(SubmissionCheck.problemWith(main).orElseThrow().contains("would configure the test engine"));
  }

  @Test
  @DisplayName("a symbolic link out of src/main is refused, naming where it leads")
  void linksOutAreRefused(@TempDir Path elsewhere) throws IOException {
    Path secret = Files.writeString(elsewhere.resolve("Secret.java"), "class Secret {}");
    Files.createDirectories(main.resolve("java/io/looplab/smoke"));
    Files.createSymbolicLink(main.resolve("java/io/looplab/smoke/Adder.java"), secret);
    String why = SubmissionCheck.problemWith(main).orElseThrow();
    assertTrue(why.contains("is a symbolic link to " + secret.toRealPath()) && why.contains("outside"), why);
  }

  @Test
  @DisplayName("a compiled class that landed in a reserved package (declared there from another folder) is refused")
  void compiledIntoAReservedPackageIsRefused(@TempDir Path classes) throws IOException {
    Files.createDirectories(classes.resolve("org/junit/platform"));
    Files.writeString(classes.resolve("org/junit/platform/Sneaky.class"), "");
    assertTrue(SubmissionCheck.problemWithCompiled(classes).orElseThrow().contains("org.junit.platform.Sneaky"));
  }
}
