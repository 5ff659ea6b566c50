package io.looplab.selftest;

import io.looplab.grader.internal.settings.Settings;

import io.looplab.cli.engine.Exercise;
import io.looplab.cli.engine.GradingEngine;
import io.looplab.cli.engine.JavaRuntimes;
import io.looplab.cli.engine.Kit;
import io.looplab.cli.engine.Originals;
import io.looplab.cli.engine.Target;
import io.looplab.report.ExerciseResult;
import io.looplab.report.ExerciseStatus;
import io.looplab.report.TestResult;
import io.looplab.report.TestStatus;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
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

  /** The kit, with the gradings' work files kept in this module's target/, never in the kit's own target/lab. */
  private static final Kit kit = Kit.locate().withWorkDir(Path.of("target", "lab-work"));
  private static final Originals originals = Originals.of(kit);
  private static final List<Variant> mutants = new ArrayList<>();
  private static final List<Variant> alternatives = new ArrayList<>();

  @TempDir
  static Path scratch;

  /** The exercises to check: all, or those named in -Dlooplab.selftest.only=ID,ID (handy while writing one). */
  private static List<Exercise> exercises() {
    String only = Settings.SELFTEST_ONLY.raw().orElse("");
    return kit.exercises().stream().filter(e -> only.isBlank() || List.of(only.split(",")).contains(e.id())).toList();
  }

  /**
   * Queues every grading, one exercise after another, so that each exercise's line of progress (see
   * {@link Gradings#whenDone}) comes as soon as its own gradings are through.
   */
  @BeforeAll
  static void startEveryGrading() throws IOException {
    List<Exercise> all = exercises();
    if (!kit.hasSolutions()) {
      System.out.println("[self-test] this kit is a handout (no solutions/): no solutions, alternatives or mutants "
          + "to check; the stubs are graded");
    }
    for (int i = 0; i < all.size(); i++) {
      Exercise e = all.get(i);
      String position = "[self-test " + (i + 1) + "/" + all.size() + "] ";
      if (!e.runsHere()) {
        System.out.println(position + e.id() + ": not graded: " + JavaRuntimes.missing(e));
        continue;
      }
      Path solution = kit.root().resolve("solutions").resolve(e.id());
      Map<String, GradingEngine.Job> jobs = new LinkedHashMap<>();
      if (kit.hasSolutions()) {
        jobs.put("solution " + e.id(), new GradingEngine.Job(Target.solutions(kit), List.of()));
      }
      // On an older JDK, an exercise that needs a newer one runs on a JDK found on the machine: its solution and
      // stub prove that path; its variants are checked where the kit runs on a new enough JDK (.ci/run: JDK 25).
      boolean variants = e.minimumJava() <= JavaRuntimes.current();
      String note = variants ? "" : " (needs JDK " + e.minimumJava() + ": graded on " + e.java().orElseThrow()
          + ", its solution and stub only; its alternatives and mutants are checked on JDK " + e.minimumJava()
          + " or newer)";
      for (Variant alternative : variants ? Variant.of(solution, Variant.Kind.ALTERNATIVE) : List.<Variant>of()) {
        alternatives.add(alternative);
        jobs.put(alternative.label(), new GradingEngine.Job(submissionOf(alternative), List.of()));
      }
      for (Variant mutant : variants ? Variant.of(solution, Variant.Kind.MUTANT) : List.<Variant>of()) {
        mutants.add(mutant);
        // Only the test the mutant must fail: the others would pass or fail for reasons the mutant is not about.
        jobs.put(mutant.label(), new GradingEngine.Job(submissionOf(mutant), List.of(mutant.test())));
      }
      jobs.put("stub " + e.id(), new GradingEngine.Job(Target.originalStubs(kit), List.of()));
      List<String> names = start(e, jobs);
      Gradings.whenDone(names,
          (reports, seconds) -> System.out.println(position + progressLine(e, reports, seconds) + note));
    }
  }

  /**
   * Starts an exercise's gradings: by default in shared JVMs, its jobs split between {@link Gradings#lanesPerExercise()}
   * of them (the kit's own variants are trusted code, see GradingEngine.gradeTogether); with
   * -Dlooplab.selftest.shared=false each in a JVM of its own, exactly as ./lab grade does, to compare.
   */
  private static List<String> start(Exercise e, Map<String, GradingEngine.Job> jobs) {
    List<String> names = new ArrayList<>(jobs.keySet());
    if (Settings.SELFTEST_SHARED.isFalse()) {
      for (String name : names) {
        GradingEngine.Job job = jobs.get(name);
        Gradings.start(name, () -> grade(e, job.target(), job.onlyTests()));
      }
      return names;
    }
    int parts = Math.min(Gradings.lanesPerExercise(), names.size());
    for (int part = 0; part < parts; part++) {
      List<String> mine = new ArrayList<>();
      for (int k = part; k < names.size(); k += parts) {
        mine.add(names.get(k));
      }
      List<GradingEngine.Job> together = mine.stream().map(jobs::get).toList();
      Gradings.startTogether(mine, () -> Gradings.withEngine(kit, engine -> engine.gradeTogether(e, together)));
    }
    return names;
  }

  private static Target submissionOf(Variant variant) throws IOException {
    Path submission = scratch.resolve(variant.kind().folder + "-" + variant.exercise() + "-" + variant.name());
    variant.materialise(kit.solutionSources(kit.find(variant.exercise())), submission);
    return Target.submission(kit, submission);
  }

  /** One line per exercise, for a person watching `mvn -B verify`: the scores, and whether originals were needed. */
  private static String progressLine(Exercise e, java.util.Map<String, ExerciseResult> reports, long seconds) {
    StringBuilder line = new StringBuilder(e.id() + ": ");
    if (!kit.hasSolutions()) {
      return line.append("stub ").append(score(reports.get("stub " + e.id()))).append(" (a handout: no solution)")
          .append(" (").append(seconds).append(" s of grading)").toString();
    }
    ExerciseResult solution = reports.get("solution " + e.id());
    line.append("solution ").append(score(solution));
    long alternativesFull = reports.entrySet().stream().filter(r -> r.getKey().startsWith("alternative "))
        .filter(r -> r.getValue().isComplete()).count();
    long alternativesAll = reports.keySet().stream().filter(k -> k.startsWith("alternative ")).count();
    line.append(", alternatives at full marks ").append(alternativesFull).append("/").append(alternativesAll);
    long caught = reports.entrySet().stream().filter(r -> r.getKey().startsWith("mutant "))
        .filter(r -> r.getValue().points() < r.getValue().max()).count();
    long mutantsAll = reports.keySet().stream().filter(k -> k.startsWith("mutant ")).count();
    line.append(", mutants losing points ").append(caught).append("/").append(mutantsAll);
    line.append(", stub ").append(score(reports.get("stub " + e.id())));
    Originals.Copy stub = originals.of(e, Originals.Part.STUB);
    Originals.Copy tests = originals.of(e, Originals.Part.TESTS);
    if (stub.changedInWorkingCopy() || tests.changedInWorkingCopy()) {
      line.append(" (checked against the kit's originals: the working copy differs in ")
          .append(Originals.describe(concat(stub.changed(), tests.changed()))).append(")");
    }
    return line.append(" (").append(seconds).append(" s of grading)").toString();
  }

  private static String score(ExerciseResult r) {
    return r == null ? "?" : r.points() + "/" + r.max();
  }

  private static <T> List<T> concat(List<T> a, List<T> b) {
    List<T> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  private static ExerciseResult grade(Exercise e, Target target, List<String> onlyTests) {
    return Gradings.withEngine(kit, engine -> engine.grade(e, target, (x, y) -> { }, onlyTests));
  }

  static String failures(ExerciseResult r) {
    return r.tests().stream().filter(t -> !t.passed())
        .map(t -> "\n  - " + t.name() + " [" + t.status() + "]: " + t.message()).collect(Collectors.joining())
        + (r.message() == null ? "" : "\n  exercise: " + r.message());
  }

  @TestFactory
  @DisplayName("every reference solution gets full marks")
  Stream<DynamicTest> solutionsGetFullMarks() {
    return exercises().stream().filter(e -> kit.hasSolutions()).map(e -> dynamicTest(e.id(), () -> {
      Assumptions.assumeTrue(e.runsHere(), () -> JavaRuntimes.missing(e));
      ExerciseResult r = Gradings.result("solution " + e.id());
      assertTrue(r.max() > 0, e.id() + " has no graded tests");
      assertEquals(r.max(), r.points(), e.id() + " solution lost points:" + failures(r));
    }));
  }

  @TestFactory
  @DisplayName("every stub compiles and scores below max")
  Stream<DynamicTest> stubsStayBelowMax() {
    return exercises().stream().map(e -> dynamicTest(e.id(), () -> {
      Originals.Copy stub = originals.of(e, Originals.Part.STUB);
      Assumptions.assumeTrue(stub.recovered(), () -> e.id() + ": not checked, because the working copy of its stub was "
          + "changed and the original cannot be recovered (" + stub.whyNot() + ")");
      Assumptions.assumeTrue(e.runsHere(), () -> JavaRuntimes.missing(e));
      ExerciseResult r = Gradings.result("stub " + e.id());
      assertTrue(r.points() < r.max(), e.id() + " stub already has full marks: a stub must fail its tests");
      assertNotEquals(ExerciseStatus.COMPILE_ERROR, r.status(), e.id() + " stub does not compile: " + r.message());
      assertNotEquals(ExerciseStatus.CRASHED, r.status(), e.id() + " stub crashed the test JVM: " + r.message());
    }));
  }

  @TestFactory
  @DisplayName("every alternative correct design gets full marks")
  Stream<DynamicTest> alternativesGetFullMarks() {
    return alternatives.stream().map(a -> dynamicTest(a.exercise() + "/" + a.name(), () -> {
      ExerciseResult r = Gradings.result(a.label());
      assertTrue(r.max() > 0, a.exercise() + " has no graded tests");
      assertEquals(r.max(), r.points(), "alternative " + a.name() + " (" + a.description()
          + ") is a correct design, yet it lost points:" + failures(r));
    }));
  }

  @TestFactory
  @DisplayName("every mutant loses points on its own test, with its own message")
  Stream<DynamicTest> mutantsAreCaught() {
    return mutants.stream().map(m -> dynamicTest(m.exercise() + "/" + m.name(), () -> {
      ExerciseResult r = Gradings.result(m.label());
      TestResult caught = r.tests().stream().filter(t -> t.isMethod(m.test()))
          .findFirst().orElseThrow(() -> new AssertionError("mutant " + m.name() + " names test '" + m.test()
              + "', which does not exist in " + m.exercise()));
      assertNotEquals(TestStatus.PASSED, caught.status(), "mutant " + m.name() + " (" + m.description() + ") passed '"
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
          e.dir().resolve("src/main/java"))) {
        assertTrue(Files.exists(required), e.id() + " lacks " + kit.root().relativize(required));
      }
      long hints = Files.readAllLines(e.hints()).stream().filter(l -> l.startsWith("## ")).count();
      assertEquals(3, hints, e.id() + " should have three hints (## Hint 1..3) in hints.md");
      if (kit.hasSolutions()) {
        assertTrue(Files.exists(solution.resolve("src/main/java")), e.id() + " lacks its solution in "
            + kit.root().relativize(solution.resolve("src/main/java")));
        assertTrue(Variant.of(solution, Variant.Kind.MUTANT).size() >= 2, e.id() + " needs two or more mutants");
        assertTrue(Variant.of(solution, Variant.Kind.ALTERNATIVE).size() >= 2, e.id() + " needs two or more "
            + "alternatives (solutions/" + e.id() + "/alternatives/NAME.json): correct designs the reference did not "
            + "use");
      }
      assertTrue(originals.records(e), e.id() + " is not recorded in " + Originals.MANIFEST
          + ": run ./lab originals --record and commit it");
      try (Stream<Path> tests = Files.walk(e.testSources())) {
        assertTrue(tests.filter(p -> p.toString().endsWith(".java")).anyMatch(p -> read(p).contains("ShutdownCheck")),
            e.id() + " has no shutdown check (ShutdownCheck.assertCleanUndeploy)");
      }
      // The kit's original stub, not the working copy: a learner who solved an exercise removes its TODO markers.
      Originals.Copy original = originals.of(e, Originals.Part.STUB);
      Assumptions.assumeTrue(original.recovered(), () -> e.id() + ": its TODO markers were not checked, because the "
          + "working copy of its stub was changed and the original cannot be recovered (" + original.whyNot() + ")");
      try (Stream<Path> stub = Files.walk(original.java())) {
        assertTrue(stub.filter(p -> p.toString().endsWith(".java")).anyMatch(p -> read(p).contains("TODO")),
            e.id() + " stub has no TODO marker telling the learner where to work");
      }
      assertFalse(e.title().isBlank(), e.id() + " has no title");
    }));
  }

  @TestFactory
  @DisplayName("every given file (exercise.json's \"given\") is the same in the stub and the solution")
  Stream<DynamicTest> givenFilesHaveNotDrifted() {
    return exercises().stream().filter(e -> kit.hasSolutions()).map(e -> dynamicTest(e.id(), () -> {
      Path stub = originals.of(e, Originals.Part.STUB).java();
      Path solution = kit.solutionSources(e);
      List<String> seen = new ArrayList<>();
      for (Path dir : List.of(stub, solution)) {
        try (Stream<Path> files = Files.walk(dir)) {
          for (Path f : files.filter(Files::isRegularFile).toList()) {
            String relative = dir.relativize(f).toString().replace('\\', '/');
            if (e.isGiven(relative) && !seen.contains(relative)) {
              seen.add(relative);
              assertTrue(Files.exists(stub.resolve(relative)) && Files.exists(solution.resolve(relative))
                  && Files.mismatch(stub.resolve(relative), solution.resolve(relative)) == -1, e.id() + ": the given file "
                  + relative + " differs between the stub and the solution (or is missing from one): a learner "
                  + "would be graded against code the reference never ran with");
            }
          }
        }
      }
      for (String g : e.given()) {
        assertTrue(seen.stream().anyMatch(s -> g.endsWith("/") ? s.startsWith(g) : s.equals(g)),
            e.id() + ": exercise.json names the given file " + g + ", which is in neither the stub nor the solution");
      }
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
