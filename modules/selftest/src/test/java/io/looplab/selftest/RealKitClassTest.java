package io.looplab.selftest;

import io.looplab.cli.classroom.ClassGrading;
import io.looplab.cli.classroom.ClassReport;
import io.looplab.cli.classroom.ClassRoster;
import io.looplab.cli.classroom.LearnerResult;
import io.looplab.cli.engine.Exercise;
import io.looplab.cli.engine.GradingEngine;
import io.looplab.cli.engine.Kit;
import io.looplab.cli.engine.Originals;
import io.looplab.cli.engine.Sandbox;
import io.looplab.cli.engine.Target;
import io.looplab.report.ExerciseResult;
import io.looplab.report.ExerciseStatus;
import io.looplab.report.Standing;
import io.looplab.report.TestResult;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * `./lab grade --class --only 09-lost-update` on a class of 30 learners of the real kit: reference solutions, untouched
 * stubs, the reference solution with each of the exercise's mutants put in (one learner each), one that does not
 * compile and one that loops forever on the event loop. Each row must be what `./lab grade --submission` gives that
 * learner's code graded alone, and the heat map must run hot exactly on the tests the mutants break.
 * (ClassReportTest does the same with the one-exercise hostile kit's misbehaving kinds, and opens the page in a
 * browser.)
 */
class RealKitClassTest {

  private static final Kit kit = Kit.locate().withWorkDir(Path.of("target", "class-work"));
  private static final String EXERCISE = HostileMatrixTest.VICTIM;
  private static final int SOLUTIONS = 11;
  private static final int STUBS = 7;

  @TempDir
  static Path work;

  /** Each kind's folder, as a learner hands it in; every learner of a kind is a copy of it. */
  static final Map<String, Path> kinds = new LinkedHashMap<>();
  /** Each mutant (it names the test it must break), by its kind's name. */
  static final Map<String, Variant> mutants = new LinkedHashMap<>();
  static final Map<String, String> kindOf = new LinkedHashMap<>();
  static final Map<String, CompletableFuture<ExerciseResult>> alone = new LinkedHashMap<>();
  static Path report;
  static CompletableFuture<List<LearnerResult>> graded;

  @BeforeAll
  static void gradeTheClass() throws IOException {
    Assumptions.assumeTrue(kit.hasSolutions(), "a handout has no solutions/ and no mutants: no class to build");
    Exercise exercise = kit.find(EXERCISE);
    Path kindsDir = Files.createDirectories(work.resolve("kinds"));
    kinds.put("solution", submissionOf(kindsDir, "solution", victim -> { }));
    Path stub = kindsDir.resolve("stub");
    // The kit's original stub, whatever the working copy holds: the kit's owner may have solved 09.
    Originals.Copy original = Originals.of(kit).of(exercise, Originals.Part.STUB);
    Assumptions.assumeTrue(original.recovered(), () -> "the original stub of " + EXERCISE + " cannot be recovered ("
        + original.whyNot() + ")");
    HostileKit.copy(original.java(), stub.resolve(EXERCISE).resolve("src/main/java"));
    kinds.put("stub", stub);
    for (Variant mutant : Variant.of(kit.root().resolve("solutions").resolve(EXERCISE), Variant.Kind.MUTANT)) {
      String kind = "mutant-" + mutant.name();
      mutant.materialise(kit.solutionSources(exercise), kindsDir.resolve(kind));
      kinds.put(kind, kindsDir.resolve(kind));
      mutants.put(kind, mutant);
    }
    kinds.put("does-not-compile", submissionOf(kindsDir, "does-not-compile",
        victim -> HostileMatrixTest.inject(victim, "int free = ;")));
    kinds.put("loops-forever", submissionOf(kindsDir, "loops-forever",
        victim -> HostileMatrixTest.inject(victim, HostileMatrixTest.ONCE + "while (who != null) { Math.sqrt(who.length()); }")));

    Sandbox sandbox = Sandbox.onThisMachine().orElse(null);
    Path klass = Files.createDirectories(work.resolve("class"));
    int n = 0;
    for (Map.Entry<String, Path> kind : kinds.entrySet()) {
      Path folder = kind.getValue();
      alone.put(kind.getKey(), Gradings.queue("class 09 " + kind.getKey(), () -> {
        try (GradingEngine engine = new GradingEngine(kit, false, sandbox)) {
          return engine.grade(exercise, Target.submission(kit, folder), (e, doing) -> { });
        }
      }));
      int copies = kind.getKey().equals("solution") ? SOLUTIONS : kind.getKey().equals("stub") ? STUBS : 1;
      for (int i = 0; i < copies; i++) {
        String learner = String.format("learner-%02d-%s", ++n, kind.getKey());
        HostileKit.copy(folder, klass.resolve(learner));
        kindOf.put(learner, kind.getKey());
      }
    }
    assertEquals(30, kindOf.size(), "a class of 30: change SOLUTIONS or STUBS when the exercise's mutants change");
    report = work.resolve("class-report");
    ClassRoster roster = ClassRoster.of(klass);
    // Two learners side by side, as --jobs 2 does, in one place of the self-test's queue.
    graded = Gradings.queue("class 09", () -> {
      List<LearnerResult> results = new ClassGrading(kit, List.of(exercise), 2, sandbox).grade(roster, r -> { });
      ClassReport.write(report, "class", List.of(exercise), results);
      return results;
    });
  }

  @FunctionalInterface
  interface Change {
    void apply(Path victim) throws IOException;
  }

  /** The reference solution, changed by {@code change}, as a submission folder. */
  private static Path submissionOf(Path dir, String kind, Change change) throws IOException {
    Path submission = dir.resolve(kind);
    HostileMatrixTest.copySolution(EXERCISE, submission);
    change.apply(submission.resolve(EXERCISE));
    return submission;
  }

  private static ExerciseResult aloneOf(String learner) throws Exception {
    return alone.get(kindOf.get(learner)).get();
  }

  @Test
  @DisplayName("each kind is graded alone as expected: solution at full marks, the others below, each mutant on its test")
  void theKindsAreWhatTheyClaim() throws Exception {
    assertEquals(alone.get("solution").get().max(), alone.get("solution").get().points(), "the reference solution");
    assertEquals(ExerciseStatus.COMPILE_ERROR, alone.get("does-not-compile").get().status());
    for (Map.Entry<String, CompletableFuture<ExerciseResult>> kind : alone.entrySet()) {
      ExerciseResult r = kind.getValue().get();
      if (!kind.getKey().equals("solution")) {
        assertTrue(r.points() < r.max(), kind.getKey() + " kept full marks");
      }
    }
    for (Map.Entry<String, Variant> m : mutants.entrySet()) {
      assertTrue(alone.get(m.getKey()).get().tests().stream().anyMatch(t -> t.isMethod(m.getValue().test())
          && !t.passed()), m.getKey() + " passed its own test, " + m.getValue().test());
    }
  }

  @Test
  @DisplayName("class.csv has a row per learner, each the scores that --submission gives the same code")
  void rowsMatchTheSubmissionGradings() throws Exception {
    graded.get();
    List<String> rows = Files.readAllLines(report.resolve("class.csv"));
    assertEquals("learner," + EXERCISE + ",total,max,note," + EXERCISE + " status", rows.get(0));
    List<String> expected = new ArrayList<>();
    for (String learner : kindOf.keySet()) {
      ExerciseResult r = aloneOf(learner);
      // the kit's original stub is "not started", whatever its score; everyone else by the one rule of Standing
      expected.add(learner + "," + r.points() + "," + r.points() + "," + r.max() + ",,"
          + Standing.of(r, kindOf.get(learner).equals("stub")).word());
    }
    assertEquals(expected, rows.subList(1, rows.size()));
  }

  @Test
  @DisplayName("every learner's tests pass and fail in the class exactly as when graded alone")
  void eachLearnersTestsAreTheirOwn() throws Exception {
    for (LearnerResult r : graded.get()) {
      ClassReportTest.assertGradedAsAlone(r.learner(), aloneOf(r.learner()), r.exercise(EXERCISE).orElseThrow());
    }
  }

  @Test
  @DisplayName("the heat map counts the learners who lost each test: each mutant makes its own test hotter")
  void heatMapRunsHotOnTheMutantsTests() throws Exception {
    graded.get();
    Map<String, Integer> lostBy = heat(Files.readString(report.resolve("index.html")));
    assertEquals(alone.get("solution").get().tests().stream().map(TestResult::name).sorted().toList(),
        lostBy.keySet().stream().sorted().toList(), "a row of the heat map per test of " + EXERCISE);
    for (Map.Entry<String, Integer> cell : lostBy.entrySet()) {
      int expected = 0;
      for (String learner : kindOf.keySet()) {
        expected += aloneOf(learner).tests().stream().anyMatch(t -> t.name().equals(cell.getKey()) && !t.passed()) ? 1 : 0;
      }
      assertEquals(expected, cell.getValue(), "learners who lost '" + cell.getKey() + "'");
    }
    // A mutant's learner is the one who makes its test hotter than the solutions, stubs and broken code make it.
    for (Map.Entry<String, Variant> m : mutants.entrySet()) {
      String test = alone.get(m.getKey()).get().tests().stream().filter(t -> t.isMethod(m.getValue().test()))
          .findFirst().orElseThrow().name();
      int withoutMutants = 0;
      for (String learner : kindOf.keySet()) {
        withoutMutants += !mutants.containsKey(kindOf.get(learner)) && aloneOf(learner).tests().stream()
            .anyMatch(t -> t.name().equals(test) && !t.passed()) ? 1 : 0;
      }
      assertTrue(lostBy.get(test) > withoutMutants, "'" + test + "', which " + m.getKey() + " breaks, should count "
          + "more than the " + withoutMutants + " learners without a mutant who lost it: " + lostBy);
    }
  }

  /** The heat map's rows: each test's name (HTML entities undone) and how many learners lost it. */
  private static Map<String, Integer> heat(String html) {
    Map<String, Integer> lostBy = new LinkedHashMap<>();
    Matcher row = Pattern.compile("data-test=\"([^\"]+)\" data-failed-by=\"(\\d+)\"").matcher(html);
    while (row.find()) {
      lostBy.put(unescape(row.group(1)), Integer.parseInt(row.group(2)));
    }
    return lostBy;
  }

  private static String unescape(String attribute) {
    Matcher entity = Pattern.compile("&#(\\d+);").matcher(attribute);
    StringBuilder plain = new StringBuilder();
    while (entity.find()) {
      entity.appendReplacement(plain, Matcher.quoteReplacement(String.valueOf((char) Integer.parseInt(entity.group(1)))));
    }
    entity.appendTail(plain);
    return plain.toString().replace("&quot;", "\"").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
  }
}
