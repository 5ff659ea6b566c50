package io.looplab.selftest;

import io.looplab.cli.engine.Exercise;
import io.looplab.cli.engine.Grader;
import io.looplab.cli.engine.Kit;
import io.looplab.cli.engine.Target;
import io.looplab.grader.scoring.ExerciseReport;
import io.looplab.grader.scoring.TestReport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

/**
 * The kit's promise about its own exercises, checked through the same engine as `./lab grade`. Every grading (each
 * solution, mutant and stub) is started up front in {@link Gradings}; the tests then collect the results in order.
 */
class KitSelfTest {

  private static final Kit kit = Kit.locate();
  private static final List<Mutant> mutants = new ArrayList<>();

  @TempDir
  static Path scratch;

  /** The exercises to check: all, or those named in -Dlooplab.selftest.only=ID,ID (handy while writing one). */
  private static List<Exercise> exercises() {
    String only = System.getProperty("looplab.selftest.only", "");
    return kit.exercises().stream().filter(e -> only.isBlank() || List.of(only.split(",")).contains(e.id())).toList();
  }

  @BeforeAll
  static void startEveryGrading() throws IOException {
    for (Exercise e : exercises()) {
      Gradings.start("solution " + e.id(), () -> grade(e, Target.solutions(kit), List.of()));
    }
    for (Mutant m : loadMutants()) {
      mutants.add(m);
      Gradings.start("mutant " + m.exercise() + "/" + m.name(), () -> {
        Path submission = scratch.resolve("mutant-" + m.exercise() + "-" + m.name());
        m.materialise(kit.solutionSources(kit.find(m.exercise())), submission);
        // Only the test the mutant must fail: the others would pass or fail for reasons the mutant is not about.
        return grade(kit.find(m.exercise()), Target.submission(kit, submission), List.of(m.test()));
      });
    }
    for (Exercise e : exercises()) {
      Gradings.start("stub " + e.id(), () -> grade(e, Target.exercises(kit), List.of()));
    }
  }

  private static ExerciseReport grade(Exercise e, Target target, List<String> onlyTests) {
    return new Grader(kit, false).grade(e, target, (x, y) -> { }, onlyTests);
  }

  private static List<Mutant> loadMutants() throws IOException {
    List<Mutant> all = new ArrayList<>();
    for (Exercise e : exercises()) {
      Path dir = kit.root().resolve("solutions").resolve(e.id()).resolve("mutants");
      if (Files.isDirectory(dir)) {
        try (Stream<Path> files = Files.list(dir)) {
          for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
            all.add(Mutant.load(f));
          }
        }
      }
    }
    return all;
  }

  static String failures(ExerciseReport r) {
    return r.tests().stream().filter(t -> !"passed".equals(t.status()))
        .map(t -> "\n  - " + t.name() + " [" + t.status() + "]: " + t.message()).collect(Collectors.joining())
        + (r.message() == null ? "" : "\n  exercise: " + r.message());
  }

  @TestFactory
  @DisplayName("every reference solution gets full marks")
  Stream<DynamicTest> solutionsGetFullMarks() {
    return exercises().stream().map(e -> dynamicTest(e.id(), () -> {
      ExerciseReport r = Gradings.result("solution " + e.id());
      assertTrue(r.max() > 0, e.id() + " has no graded tests");
      assertEquals(r.max(), r.points(), e.id() + " solution lost points:" + failures(r));
    }));
  }

  @TestFactory
  @DisplayName("every stub compiles and scores below max")
  Stream<DynamicTest> stubsStayBelowMax() {
    return exercises().stream().map(e -> dynamicTest(e.id(), () -> {
      ExerciseReport r = Gradings.result("stub " + e.id());
      assertTrue(r.points() < r.max(), e.id() + " stub already has full marks: a stub must fail its tests");
      assertNotEquals("compile-error", r.status(), e.id() + " stub does not compile: " + r.message());
      assertNotEquals("crashed", r.status(), e.id() + " stub crashed the test JVM: " + r.message());
    }));
  }

  @TestFactory
  @DisplayName("every mutant loses points on its own test, with its own message")
  Stream<DynamicTest> mutantsAreCaught() {
    return mutants.stream().map(m -> dynamicTest(m.exercise() + "/" + m.name(), () -> {
      ExerciseReport r = Gradings.result("mutant " + m.exercise() + "/" + m.name());
      TestReport caught = r.tests().stream().filter(t -> t.key().contains("[method:" + m.test() + "(")
          || t.key().contains("[test-factory:" + m.test() + "(") || t.key().contains("[test-template:" + m.test() + "("))
          .findFirst().orElseThrow(() -> new AssertionError("mutant " + m.name() + " names test '" + m.test()
              + "', which does not exist in " + m.exercise()));
      assertNotEquals("passed", caught.status(), "mutant " + m.name() + " (" + m.description() + ") passed '"
          + caught.name() + "'; other failures:" + failures(r));
      for (String fragment : m.expect()) {
        assertTrue(caught.message() != null && caught.message().contains(fragment), "mutant " + m.name()
            + ": the message of '" + caught.name() + "' should contain '" + fragment + "' but was: " + caught.message());
      }
    }));
  }

  @TestFactory
  @DisplayName("every exercise is a complete package")
  Stream<DynamicTest> exercisesAreComplete() {
    return exercises().stream().map(e -> dynamicTest(e.id(), () -> {
      Path solution = kit.root().resolve("solutions").resolve(e.id());
      for (Path required : List.of(e.dir().resolve("README.md"), e.hints(), e.testSources(),
          e.dir().resolve("src/main/java"), solution.resolve("src/main/java"))) {
        assertTrue(Files.exists(required), e.id() + " lacks " + kit.root().relativize(required));
      }
      long hints = Files.readAllLines(e.hints()).stream().filter(l -> l.startsWith("## ")).count();
      assertEquals(3, hints, e.id() + " should have three hints (## Hint 1..3) in hints.md");
      try (Stream<Path> files = Files.list(solution.resolve("mutants"))) {
        assertTrue(files.filter(p -> p.toString().endsWith(".json")).count() >= 2, e.id() + " needs two or more mutants");
      }
      try (Stream<Path> tests = Files.walk(e.testSources())) {
        assertTrue(tests.filter(p -> p.toString().endsWith(".java")).anyMatch(p -> read(p).contains("ShutdownCheck")),
            e.id() + " has no shutdown check (ShutdownCheck.assertCleanUndeploy)");
      }
      try (Stream<Path> stub = Files.walk(e.dir().resolve("src/main/java"))) {
        assertTrue(stub.filter(p -> p.toString().endsWith(".java")).anyMatch(p -> read(p).contains("TODO")),
            e.id() + " stub has no TODO marker telling the learner where to work");
      }
      assertFalse(e.title().isBlank(), e.id() + " has no title");
    }));
  }

  private static String read(Path p) {
    try {
      return Files.readString(p);
    } catch (IOException ex) {
      throw new java.io.UncheckedIOException(ex);
    }
  }
}
