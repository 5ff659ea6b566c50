package io.looplab.selftest;

import io.looplab.grader.internal.settings.Setting;
import io.looplab.grader.internal.settings.Settings;

import io.looplab.cli.Lab;
import io.looplab.cli.engine.Exercise;
import io.looplab.cli.engine.Kit;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What an instructor does with a handout, from outside: `./lab handout`, a fresh `git clone` of it, then in the
 * clone `./lab grade` and `mvn -B verify`, as a learner would run them. The clone's verify runs the grader's and the
 * CLI's tests and its self-test again, so this takes minutes: it runs after the other tests (its own surefire
 * execution, see the pom) and only when -Dlooplab.handout.verify=true (CI's first run sets it).
 *
 * <p>The two commands run side by side, each in a clone of its own, as two learners' machines would: `./lab grade`
 * grades one exercise at a time and leaves much of a 2-core machine idle: one after the other they took 253 + 524 s
 * of CI here, side by side 588 s. Neither clone sees the other's build output.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HandoutFromAFreshClone {

  /** Far beyond what each step takes on a quiet 2-core machine (grade: about 1.5 min; verify: minutes). */
  private static final long GRADE_LIMIT_SECONDS = 900;
  private static final long VERIFY_LIMIT_SECONDS = 2_400;

  /** The clone where ./lab grade runs, and the one where mvn -B verify runs (started as soon as it is cloned). */
  private static Path gradeClone;
  private static Path verifyClone;
  private static ShellRun.Running runningVerify;
  private static Path logs;

  @BeforeAll
  static void cloneAHandout() throws Exception {
    Assumptions.assumeTrue(Settings.HANDOUT_VERIFY.isTrue(), "the handout's full verify runs only with "
        + "-Dlooplab.handout.verify=true (CI's first run)");
    Path work = Files.createTempDirectory("looplab-handout-");
    logs = Path.of("target", "handout-from-a-fresh-clone").toAbsolutePath();
    Files.createDirectories(logs);
    Path handout = work.resolve("handout");
    assertEquals(0, Lab.execute("handout", handout.toString()), "lab handout failed");
    gradeClone = cloneOf(handout, work.resolve("clone"));
    verifyClone = cloneOf(handout, work.resolve("clone-for-verify"));
    runningVerify = ShellRun.start(verifyClone, logs.resolve("mvn-verify.log"), VERIFY_LIMIT_SECONDS,
        verifyCommand());
  }

  @AfterAll
  static void stopWhatStillRuns() throws InterruptedException {
    if (runningVerify != null) {
      runningVerify.kill();
    }
  }

  private static Path cloneOf(Path handout, Path clone) throws Exception {
    ShellRun git = ShellRun.of(clone.getParent(), logs.resolve("git-clone-" + clone.getFileName() + ".log"), 120,
        List.of("git", "clone", "-q", handout.toString(), clone.toString()));
    assertEquals(0, git.exit(), "git clone of the handout failed:\n" + git.tail(20));
    return clone;
  }

  /**
   * The learner's command, made as strict as this run: a missing browser or bubblewrap fails there too, instead of
   * skipping the classes that this run leaves to the clone (RunsInTheHandoutClone).
   */
  private static List<String> verifyCommand() {
    List<String> command = new ArrayList<>(List.of("mvn", "-B", "-o", "verify"));
    for (Setting strict : List.of(Settings.REQUIRE_CHROMIUM, Settings.REQUIRE_BWRAP, Settings.REQUIRE_POSTGRES)) {
      if (strict.isTrue()) {
        command.add("-D" + strict.name() + "=true");
      }
    }
    return command;
  }

  @Test
  @Order(1)
  @DisplayName("in a fresh clone of the handout, ./lab grade builds the kit and grades every stub below full marks")
  void labGradeInTheClone() throws Exception {
    Path json = logs.resolve("grade.json");
    ShellRun grade = ShellRun.of(gradeClone, logs.resolve("lab-grade.log"), GRADE_LIMIT_SECONDS,
        List.of("./lab", "grade", "--json", json.toString()));
    System.out.println("[handout] ./lab grade in a fresh clone: exit " + grade.exit() + " after " + grade.seconds()
        + " s");
    assertEquals(0, grade.exit(), "./lab grade in the handout's clone (log: " + grade.log() + "):\n"
        + grade.tail(40));
    JsonArray exercises = new JsonObject(Files.readString(json)).getJsonArray("exercises");
    assertEquals(Kit.locate().exercises().stream().filter(Exercise::runsHere).count(), exercises.size(),
        "exercises graded in the handout: " + exercises);
    for (Object e : exercises) {
      JsonObject exercise = (JsonObject) e;
      assertEquals("failed", exercise.getString("status"), "the stub of " + exercise.getString("id")
          + " in the handout: " + exercise.encode());
    }
    // ./lab's first build is mvn -DskipTests package: a module whose POM sets skipTests itself would run its tests
    // there, minutes of them, silently, on every learner's first command (it did, for three modules).
    try (Stream<Path> modules = Files.list(gradeClone.resolve("modules"))) {
      List<Path> ran = modules.map(m -> m.resolve("target/surefire-reports")).filter(Files::isDirectory).toList();
      assertEquals(List.of(), ran, "./lab's first build in the handout's clone ran tests");
    }
  }

  @Test
  @Order(2)
  @DisplayName("in a fresh clone of the handout, mvn -B verify passes, and its self-test says there are no solutions")
  void mavenVerifyInTheClone() throws Exception {
    ShellRun verify = runningVerify.await();
    System.out.println("[handout] mvn -B verify in a fresh clone: exit " + verify.exit() + " after "
        + verify.seconds() + " s (beside ./lab grade in the other clone)");
    assertEquals(0, verify.exit(), "mvn -B verify in the handout's clone (log: " + verify.log() + "):\n"
        + verify.tail(60));
    String out = verify.output();
    assertTrue(out.contains("[self-test] this kit is a handout (no solutions/)"), "the handout's self-test did not say "
        + "that it has no solutions (log: " + verify.log() + ")");
    assertTrue(out.contains("BUILD SUCCESS"), verify.tail(20));
    // What CI's first run left to this clone (RunsInTheHandoutClone, and the root pom's profile for the modules):
    // each must have run here, and passed.
    Path selftestReports = verifyClone.resolve("modules/selftest/target/surefire-reports");
    for (Class<?> left : RunsInTheHandoutClone.CLASSES) {
      assertRanInTheClone(left.getSimpleName(), List.of(selftestReports.resolve("TEST-" + left.getName() + ".xml")));
    }
    for (String module : List.of("grader", "vertx-guard", "session")) {
      try (Stream<Path> reports = Files.list(verifyClone.resolve("modules").resolve(module)
          .resolve("target/surefire-reports"))) {
        assertRanInTheClone("the " + module + " module's tests",
            reports.filter(r -> r.getFileName().toString().matches("TEST-.*\\.xml")).toList());
      }
    }
  }

  /** Surefire's reports of {@code what} in the clone: some tests ran, none skipped by all, none failed. */
  private static void assertRanInTheClone(String what, List<Path> reports) throws IOException {
    int run = 0;
    int skipped = 0;
    for (Path report : reports) {
      assertTrue(Files.isRegularFile(report), what + " is left to the handout's clone on this run, but the clone "
          + "has no report " + report + ": it did not run");
      String xml = Files.readString(report);
      Matcher suite = Pattern.compile("<testsuite [^>]*").matcher(xml);
      assertTrue(suite.find(), "not a surefire report: " + report);
      String head = suite.group();
      assertEquals("0 failures, 0 errors", count(head, "failures") + " failures, " + count(head, "errors")
          + " errors", what + " in the handout's clone (" + report + ")");
      run += count(head, "tests");
      skipped += count(head, "skipped");
    }
    assertTrue(run > skipped, what + " is left to the handout's clone on this run, but the clone ran none of it ("
        + run + " tests, " + skipped + " skipped, in " + reports.size() + " reports)");
    System.out.println("[handout] " + what + " ran in the clone: " + (run - skipped) + " tests passed, " + skipped
        + " skipped");
  }

  private static int count(String testsuite, String attribute) {
    Matcher m = Pattern.compile("\\s" + attribute + "=\"(\\d+)\"").matcher(testsuite);
    assertTrue(m.find(), "no " + attribute + " in " + testsuite);
    return Integer.parseInt(m.group(1));
  }
}
