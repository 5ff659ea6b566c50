package io.looplab.selftest;

import io.looplab.cli.classroom.ClassGrading;
import io.looplab.cli.classroom.ClassReport;
import io.looplab.cli.classroom.ClassRoster;
import io.looplab.cli.classroom.LearnerResult;
import io.looplab.cli.engine.Kit;
import io.looplab.cli.engine.Sandbox;
import io.looplab.report.ExerciseResult;
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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * `./lab grade --class` on a class of 30 copies of the one-exercise hostile kit's submissions: correct ones, stubs,
 * ones that block, spin, leave a thread, exit, flood their output, loop forever or do not compile, and a folder that
 * is no submission at all. Every row must be what `./lab grade --submission` gives that copy's content (graded once
 * per kind, the copies being byte for byte the same), and no learner's code may cost another learner anything.
 */
@RunsInTheHandoutClone
class ClassReportTest {

  /**
   * How many copies of each kind the class has: 30 learners in all, with the folder of nothing. Every kind is here at
   * least once and the common ones (a correct solution, the untouched stub, code that blocks or spins on the event
   * loop) several times, as in a real room.
   */
  private static final Map<String, Integer> CLASS = new LinkedHashMap<>();

  static {
    CLASS.put("solution", 10);
    CLASS.put("stub", 6);
    CLASS.put("sleeps-5ms-on-loop", 3);
    CLASS.put("spins-100ms-on-loop", 3);
    CLASS.put("leaves-a-thread", 2);
    CLASS.put("does-not-compile", 1);
    CLASS.put("floods-output", 1);
    CLASS.put("calls-system-exit", 1);
    CLASS.put("never-returns", 1);
    CLASS.put("loops-forever", 1);
  }

  @TempDir
  static Path work;

  static Kit kit;
  static Path report;
  /** The kind each learner's folder is a copy of; "nothing" is a folder with no exercise in it. */
  static final Map<String, String> kindOf = new LinkedHashMap<>();
  static CompletableFuture<List<LearnerResult>> graded;

  @BeforeAll
  static void gradeTheClass() throws IOException {
    kit = HostileKit.shared();
    Path klass = Files.createDirectories(work.resolve("class"));
    int n = 0;
    for (Map.Entry<String, Integer> kind : CLASS.entrySet()) {
      HostileKit.startGrading(kit, kind.getKey());
      for (int i = 0; i < kind.getValue(); i++) {
        String learner = String.format("learner-%02d-%s", ++n, kind.getKey());
        HostileKit.copy(HostileKit.submissionFolder(kind.getKey()), klass.resolve(learner));
        kindOf.put(learner, kind.getKey());
      }
    }
    String nothing = String.format("learner-%02d-nothing", ++n);
    Files.writeString(Files.createDirectories(klass.resolve(nothing)).resolve("README.txt"), "I forgot my code");
    kindOf.put(nothing, "nothing");
    Files.writeString(klass.resolve("submissions.zip"), "not a learner");
    report = work.resolve("class-report");
    ClassRoster roster = ClassRoster.of(klass);
    // Two learners side by side, as --jobs 2 does, in one place of the self-test's queue.
    graded = Gradings.queue("class report", () -> {
      List<LearnerResult> results = new ClassGrading(kit, kit.exercises(), 2, Sandbox.onThisMachine().orElse(null)).grade(roster, r -> { });
      ClassReport.write(report, "class", kit.exercises(), results);
      return results;
    });
  }

  @Test
  @DisplayName("class.csv has a row per learner, each the scores that --submission gives the same code")
  void rowsMatchTheSubmissionGradings() throws Exception {
    List<LearnerResult> results = graded.get();
    assertEquals(kindOf.size(), results.size(), "a row per learner folder; the stray file is no learner");
    List<String> rows = Files.readAllLines(report.resolve("class.csv"));
    // the status column (where each learner stands: Standing's word) comes after the note, so old readers keep theirs
    assertEquals("learner,01-smoke,total,max,note,01-smoke status", rows.get(0));
    List<String> expected = new ArrayList<>();
    List<String> actual = new ArrayList<>();
    NotComparable notComparable = new NotComparable("class.csv's rows against gradings alone");
    for (int i = 0; i < results.size(); i++) {
      String learner = results.get(i).learner();
      String kind = kindOf.get(learner);
      if (kind.equals("nothing")) {
        expected.add(learner + ",,,,\"not a submission: no exercise folder in it (expected folders such as "
            + "01-smoke/src/main/java, the layout of exercises/)\",not-started");
        actual.add(rows.get(i + 1));
        continue;
      }
      ExerciseResult alone = Gradings.result("hostile " + kind);
      if (notComparable.compare(learner, alone, results.get(i).exercise("01-smoke").orElseThrow())) {
        // the untouched stub is "not started", whatever its score; everyone else by the one rule of Standing
        expected.add(learner + "," + alone.points() + "," + alone.points() + "," + alone.max() + ",,"
            + Standing.of(alone, kind.equals("stub")).word());
        actual.add(rows.get(i + 1));
      }
    }
    assertEquals(expected, actual);
    notComparable.report();
  }

  @Test
  @DisplayName("every learner's tests pass and fail in the class exactly as when graded alone, whatever the others did")
  void eachLearnersTestsAreTheirOwn() throws Exception {
    NotComparable notComparable = new NotComparable("each learner's tests against the same code graded alone");
    for (LearnerResult r : graded.get()) {
      String kind = kindOf.get(r.learner());
      if (kind.equals("nothing")) {
        assertFalse(r.isGraded(), r.learner() + " has no exercise folder");
        continue;
      }
      ExerciseResult alone = Gradings.result("hostile " + kind);
      ExerciseResult inClass = r.exercise("01-smoke").orElseThrow();
      if (notComparable.compare(r.learner(), alone, inClass)) {
        assertGradedAsAlone(r.learner(), alone, inClass);
      }
    }
    notComparable.report();
  }

  /** A learner's exercise in the class has the status, and each test the status, of the same code graded alone. */
  static void assertGradedAsAlone(String learner, ExerciseResult alone, ExerciseResult inClass) {
    assertEquals(alone.status(), inClass.status(), learner);
    for (TestResult t : alone.tests()) {
      TestResult same = inClass.tests().stream().filter(x -> x.name().equals(t.name())).findFirst().orElseThrow();
      assertEquals(t.status(), same.status(), learner + ": " + t.name() + ": " + same.message());
    }
  }

  @Test
  @DisplayName("the heat map counts, for each test, the learners who lost it: the misbehaving kinds' tests run hot")
  void heatMapShowsWhereTheClassLosesPoints() throws Exception {
    List<LearnerResult> results = graded.get();
    String html = Files.readString(report.resolve("index.html"));
    Map<String, Integer> lostBy = new LinkedHashMap<>();
    Matcher row = Pattern.compile("data-test=\"([^\"]+)\" data-failed-by=\"(\\d+)\"").matcher(html);
    while (row.find()) {
      lostBy.put(row.group(1), Integer.parseInt(row.group(2)));
    }
    assertEquals(List.of("adds two numbers", "handler does not block the loop"), List.copyOf(lostBy.keySet()));
    // The counts below add up every learner's verdict: one the machine kept from judging leaves nothing to count.
    Assumptions.assumeTrue(results.stream().flatMap(r -> r.exercise("01-smoke").stream())
        .noneMatch(NotComparable::isTheMachines) && kindOf.values().stream().filter(k -> !k.equals("nothing"))
        .distinct().noneMatch(k -> NotComparable.isTheMachines(result(k))), "a grading was not graded for the "
        + "machine's reasons: the heat map's counts cannot be predicted");
    for (String test : lostBy.keySet()) {
      int expected = 0;
      for (Map.Entry<String, String> learner : kindOf.entrySet()) {
        if (!learner.getValue().equals("nothing") && !Gradings.result("hostile " + learner.getValue()).tests()
            .stream().filter(t -> t.name().equals(test)).findFirst().orElseThrow().passed()) {
          expected++;
        }
      }
      assertEquals(expected, lostBy.get(test), "learners who lost '" + test + "'");
    }
    int blockers = CLASS.get("sleeps-5ms-on-loop") + CLASS.get("spins-100ms-on-loop");
    assertTrue(lostBy.get("handler does not block the loop") >= blockers, "every learner whose handler blocks or "
        + "spins lost that test: " + lostBy);
    for (LearnerResult r : results) {
      assertTrue(html.contains(">" + r.learner() + "</th>"), "a column for " + r.learner());
    }
  }

  private static ExerciseResult result(String kind) {
    try {
      return Gradings.result("hostile " + kind);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  @DisplayName("index.html opens in headless Chromium, and its screenshot is drawn")
  void pageOpensInABrowser() throws Exception {
    graded.get();
    var chromium = HeadlessBrowser.find();
    if (chromium.isEmpty()) {
      assertFalse(HeadlessBrowser.required(), "looplab.require.chromium is set, but " + HeadlessBrowser.CHROMIUM
          + " is missing: .ci/run installs Debian's chromium package");
      Assumptions.abort("no " + HeadlessBrowser.CHROMIUM + " on this machine (CI installs it)");
    }
    Path png = work.resolve("class-report.png");
    HeadlessBrowser.Run shot = HeadlessBrowser.screenshot(chromium.get(), report.resolve("index.html"), png,
        Files.createDirectories(work.resolve("chromium-1")));
    assertEquals(0, shot.exitCode(), "chromium --screenshot failed: " + shot.output());
    assertTrue(Files.size(png) > 10_000, "the screenshot is " + Files.size(png) + " bytes: nothing was drawn?");
    HeadlessBrowser.Run dom = HeadlessBrowser.dumpDom(chromium.get(), report.resolve("index.html"),
        Files.createDirectories(work.resolve("chromium-2")));
    assertEquals(0, dom.exitCode(), "chromium --dump-dom failed");
    assertTrue(dom.output().contains("class=\"heat-map\"") && dom.output().contains("learner-" + kindOf.size()),
        "the loaded page has the heat map and the last learner's section:\n" + dom.output().lines().limit(20).toList());
  }
}
