package io.looplab.cli.commands;

import io.looplab.cli.TinyKit;
import io.looplab.cli.classroom.ClassReport;
import io.looplab.cli.classroom.ClassRoster;
import io.looplab.cli.classroom.LearnerResult;
import io.looplab.cli.engine.Console;
import io.looplab.cli.engine.Exercise;
import io.looplab.cli.engine.Scoreboard;
import io.looplab.cli.engine.UsageError;
import io.looplab.report.ExerciseResult;
import io.looplab.report.TestResult;
import io.looplab.report.TestStatus;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * `--class` writes its report learner by learner and `--learner` re-grades one into it. The grading itself is a
 * test's (made-up scores, learners finishing in the order the test chooses); the kit's is the self-test's.
 */
class ClassGradeRunTest {

  private static final Exercise ONE = new Exercise("01-one", "One", Path.of("01-one"), 30, List.of(), List.of(), 17);

  @TempDir
  Path dir;

  /** A class folder of these learners (empty folders: the test's grader never opens them). */
  private Path klass(String... learners) throws IOException {
    Path klass = dir.resolve("class");
    for (String l : learners) {
      Files.createDirectories(klass.resolve(l));
    }
    return klass;
  }

  private static LearnerResult scored(String learner, int points) {
    List<TestResult> tests = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      TestResult t = TestResult.pending("t" + i, "test " + i, 1);
      tests.add(t.recorded(i < points ? TestStatus.PASSED : TestStatus.FAILED, i < points ? null : "lost " + i));
    }
    return LearnerResult.graded(learner, new Scoreboard(learner, List.of(ExerciseResult.of(ONE.id(), ONE.title(),
        tests))), 10, Set.of());
  }

  private static List<String> csv(Path report) {
    try {
      return Files.readAllLines(report.resolve("class.csv"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String page(Path report) {
    try {
      return Files.readString(report.resolve("index.html"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String quietly(Runnable run) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Console.within(new Console(out), () -> {
      run.run();
      return null;
    });
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  @DisplayName("the report is rewritten as each learner finishes, rows in the class's order whatever order they finish in")
  void writesLearnerByLearner() throws Exception {
    Path klass = klass("alice", "bob", "carol");
    Path report = dir.resolve("report");
    List<List<String>> seen = new ArrayList<>();
    List<String> pages = new ArrayList<>();
    ClassGradeRun.Grader backwards = (roster, done) -> {
      List<ClassRoster.Learner> learners = new ArrayList<>(roster.learners());
      java.util.Collections.reverse(learners);
      for (ClassRoster.Learner l : learners) {
        done.accept(scored(l.name(), l.name().length() % 4));
        seen.add(csv(report).stream().map(r -> r.split(",")[0]).toList());
        pages.add(page(report));
      }
    };
    String out = quietly(() -> new ClassGradeRun(klass, List.of(ONE), report, backwards, "a test's grading").all());
    assertEquals(List.of(List.of("learner", "carol"), List.of("learner", "bob", "carol"),
        List.of("learner", "alice", "bob", "carol")), seen);
    assertTrue(pages.get(0).contains("<strong>1 of 3 graded</strong>"), pages.get(0));
    assertTrue(pages.get(1).contains("<strong>2 of 3 graded</strong>"), pages.get(1));
    assertFalse(pages.get(2).contains("partial-run\""), "the whole class is in the last page");
    assertTrue(out.contains("[3/3] alice"), out);
  }

  @Test
  @DisplayName("learners finishing on several threads at once each get their row: none lost, none written twice")
  void learnersFinishingTogether() throws Exception {
    List<String> names = List.of("a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8");
    Path klass = klass(names.toArray(String[]::new));
    Path report = dir.resolve("report");
    ClassGradeRun.Grader together = (roster, done) -> {
      ExecutorService pool = Executors.newFixedThreadPool(4);
      CountDownLatch start = new CountDownLatch(1);
      for (ClassRoster.Learner l : roster.learners()) {
        pool.submit(() -> {
          start.await();
          done.accept(scored(l.name(), 2));
          return null;
        });
      }
      start.countDown();
      pool.shutdown();
      assertTrue(pool.awaitTermination(60, TimeUnit.SECONDS));
    };
    quietly(() -> new ClassGradeRun(klass, List.of(ONE), report, together, "a test's grading").all());
    List<String> rows = csv(report);
    assertEquals(names, rows.subList(1, rows.size()).stream().map(r -> r.split(",")[0]).toList());
    try (var files = Files.list(report.resolve("learners"))) {
      assertEquals(names.size(), files.count());
    }
  }

  @Test
  @DisplayName("a grading stopped half-way leaves a report of the learners finished so far, saying k of n")
  void interruptedRunLeavesAPartialReport() throws Exception {
    Path klass = klass("alice", "bob", "carol");
    Path report = dir.resolve("report");
    ClassGradeRun.Grader stopsAfterTwo = (roster, done) -> {
      done.accept(scored("alice", 3));
      done.accept(scored("bob", 1));
      throw new InterruptedException("stopped by the test");
    };
    UsageError stopped = assertThrows(UsageError.class, () -> quietly(() -> new ClassGradeRun(klass, List.of(ONE),
        report, stopsAfterTwo, "a test's grading").all()));
    Thread.interrupted();
    assertTrue(stopped.getMessage().contains("the learners finished so far"), stopped.getMessage());
    assertEquals(List.of("learner,01-one,total,max,note,01-one status", "alice,3,3,3,,full-marks",
        "bob,1,1,3,,partial"), csv(report));
    assertTrue(page(report).contains("<strong>2 of 3 graded</strong>"), page(report));
    assertTrue(Files.readString(report.resolve(ClassReport.PROJECTOR_PAGE)).contains("2 of 3 learners graded so far"));
  }

  @Test
  @DisplayName("--learner grades that learner alone and replaces their row; everyone else's row and file stay as they were")
  void regradesOneLearner() throws Exception {
    Path klass = klass("alice", "bob", "carol");
    Path report = dir.resolve("report");
    quietly(() -> new ClassGradeRun(klass, List.of(ONE), report, (roster, done) -> roster.learners()
        .forEach(l -> done.accept(scored(l.name(), 1))), "first").all());
    String alice = Files.readString(report.resolve("learners/alice.json"));
    String carol = Files.readString(report.resolve("learners/carol.json"));
    List<String> graded = new ArrayList<>();
    quietly(() -> new ClassGradeRun(klass, List.of(ONE), report, (roster, done) -> roster.learners().forEach(l -> {
      graded.add(l.name());
      done.accept(scored(l.name(), 3));
    }), "again").one("bob"));
    assertEquals(List.of("bob"), graded, "only bob is graded");
    assertEquals(List.of("learner,01-one,total,max,note,01-one status", "alice,1,1,3,,partial",
        "bob,3,3,3,,full-marks", "carol,1,1,3,,partial"), csv(report));
    assertEquals(alice, Files.readString(report.resolve("learners/alice.json")));
    assertEquals(carol, Files.readString(report.resolve("learners/carol.json")));
    assertFalse(page(report).contains("partial-run\""), "the report is of the whole class: " + page(report));
  }

  @Test
  @DisplayName("--learner adds a learner the report did not have yet (a folder handed in late), in name order")
  void addsALateLearner() throws Exception {
    Path klass = klass("alice", "carol");
    Path report = dir.resolve("report");
    quietly(() -> new ClassGradeRun(klass, List.of(ONE), report, (roster, done) -> roster.learners()
        .forEach(l -> done.accept(scored(l.name(), 2))), "first").all());
    Files.createDirectories(klass.resolve("bob"));
    quietly(() -> new ClassGradeRun(klass, List.of(ONE), report, (roster, done) -> roster.learners()
        .forEach(l -> done.accept(scored(l.name(), 0))), "late").one("bob"));
    assertEquals(List.of("alice", "bob", "carol"), csv(report).subList(1, 4).stream().map(r -> r.split(",")[0])
        .toList());
    assertTrue(csv(report).get(2).endsWith(",failing"), csv(report).get(2));
  }

  @Test
  @DisplayName("bad input to --class and --learner: one line, exit status 2, and the report folder unchanged")
  void badInput() throws Exception {
    TinyKit kit = TinyKit.create(dir.resolve("kit"));
    Path klass = klass("alice", "bob");
    Path report = dir.resolve("report");
    Files.createDirectories(report);
    Files.writeString(report.resolve("notes.txt"), "not a report");
    Path fresh = dir.resolve("fresh");
    Path good = dir.resolve("good");
    ClassReport.write(good, "class", List.of(ONE), List.of(scored("alice", 1), scored("bob", 2)));
    String goodCsv = Files.readString(good.resolve("class.csv"));
    Map<String, String[]> cases = new java.util.LinkedHashMap<>();
    cases.put("--learner zed: no such learner in " + klass + " (its learners: alice, bob)", new String[] {"grade",
        "--class", klass.toString(), "--out", good.toString(), "--learner", "zed"});
    cases.put("holds something other than a class report", new String[] {"grade", "--class", klass.toString(), "--out", report.toString(),
        "--learner", "alice"});
    cases.put("not a class report (no class.csv", new String[] {"grade", "--class", klass.toString(), "--out",
        fresh.toString(), "--learner", "alice"});
    cases.put("--learner works with --class", new String[] {"grade", "--learner", "alice"});
    cases.put("--visibility sometimes: must be one of visible, hidden, after_due_date, after_published",
        new String[] {"grade", "--format", "gradescope", "--out", dir.resolve("g.json").toString(), "--visibility",
            "sometimes"});
    cases.put("--visibility works with --format gradescope", new String[] {"grade", "--format", "junit", "--out",
        dir.resolve("j.xml").toString(), "--visibility", "hidden"});
    for (Map.Entry<String, String[]> c : cases.entrySet()) {
      TinyKit.Run run = kit.lab("", c.getValue());
      assertEquals(2, run.status(), c.getKey() + ": " + run.err());
      assertTrue(run.errLine().contains(c.getKey()), c.getKey() + ": " + run.err());
      assertEquals(1, run.errLine().lines().count(), run.err());
    }
    try (var files = Files.list(report)) {
      assertEquals(List.of(report.resolve("notes.txt")), files.toList(), "nothing written into the folder");
    }
    assertFalse(Files.exists(fresh), "no report folder made for a refused --learner");
    assertEquals(goodCsv, Files.readString(good.resolve("class.csv")), "the report is as it was");
    assertFalse(Files.exists(dir.resolve("g.json")) || Files.exists(dir.resolve("j.xml")));
  }
}
