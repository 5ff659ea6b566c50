package io.looplab.selftest;

import io.looplab.cli.Lab;
import io.looplab.cli.engine.Exercise;
import io.looplab.cli.engine.Kit;
import io.looplab.cli.engine.Target;
import io.looplab.report.ExerciseResult;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * `./lab handout DIR` on this kit: the learners' copy has no answers in it, is a git repository of its own, Maven
 * accepts its reactor, and its grader grades its stubs as this kit grades them. (A fresh clone's own `./lab grade`
 * and `mvn -B verify` take minutes: {@link HandoutFromAFreshClone} runs them, after the other tests, in CI.)
 */
class HandoutTest {

  private static final Kit kit = Kit.locate();
  /** The exercise whose stub the handout's grader grades: the first one, as a learner's first `./lab check`. */
  private static final Exercise FIRST = kit.exercises().get(0);

  @TempDir
  static Path work;
  static Path handout;
  static int status;

  @BeforeAll
  static void writeTheHandout() throws IOException {
    handout = work.resolve("loop-lab-handout");
    status = Lab.execute("handout", handout.toString());
    if (status == 0) {
      HostileKit.borrowClasspath(FIRST, handout, FIRST.id());
      Kit learners = Kit.at(handout);
      Gradings.start("handout stub " + FIRST.id(), () -> Gradings.withEngine(learners, engine -> engine
          .grade(learners.find(FIRST.id()), Target.exercises(learners), (e, doing) -> { })));
    }
  }

  @Test
  @DisplayName("the handout has no solutions, mutants or alternatives, and its pom names no solution module")
  void noAnswersInTheHandout() throws IOException {
    assertEquals(0, status, "lab handout failed");
    assertFalse(Files.exists(handout.resolve("solutions")), "solutions/ was copied");
    try (Stream<Path> all = Files.walk(handout)) {
      List<String> answers = all.map(p -> handout.relativize(p).toString().replace('\\', '/'))
          .filter(p -> !p.startsWith(".git/"))
          .filter(p -> p.contains("/mutants/") || p.contains("/alternatives/")).toList();
      assertEquals(List.of(), answers, "mutants or alternatives in the handout");
    }
    String pom = Files.readString(handout.resolve("pom.xml"));
    assertFalse(pom.contains("<module>solutions/"), "the root pom still names solution modules");
    Matcher module = Pattern.compile("<module>([^<]+)</module>").matcher(pom);
    List<String> modules = new ArrayList<>();
    while (module.find()) {
      modules.add(module.group(1));
    }
    assertFalse(modules.isEmpty(), "no modules in the handout's pom");
    for (String m : modules) {
      assertTrue(Files.exists(handout.resolve(m).resolve("pom.xml")), "the pom names module " + m + ", not there");
    }
    for (Exercise e : kit.exercises()) {
      assertTrue(Files.isDirectory(handout.resolve("exercises").resolve(e.id()).resolve("src/test/java")),
          e.id() + " lacks its graded tests in the handout");
    }
  }

  @Test
  @DisplayName("the handout is a git repository with everything committed, and Maven accepts its reactor")
  void handoutIsACleanRepositoryMavenAccepts() throws Exception {
    assertEquals(0, status, "lab handout failed");
    assertEquals("", run(handout, "git", "status", "--porcelain").strip(), "uncommitted files in the handout");
    assertEquals("1", run(handout, "git", "rev-list", "--count", "HEAD").strip());
    String validate = run(handout, "mvn", "-B", "-q", "-o", "validate");
    assertFalse(validate.contains("[ERROR]"), "mvn validate in the handout:\n" + validate);
  }

  @Test
  @DisplayName("the handout's grader grades its first stub as this kit grades the same stub")
  void handoutGradesItsStubs() throws Exception {
    assertEquals(0, status, "lab handout failed");
    ExerciseResult inHandout = Gradings.result("handout stub " + FIRST.id());
    assertTrue(inHandout.max() > 0 && inHandout.points() < inHandout.max(), "the stub of " + FIRST.id()
        + " got " + inHandout.points() + "/" + inHandout.max() + " in the handout");
    assertTrue(inHandout.message() == null || !inHandout.message().contains("does not compile"), inHandout.message());
  }

  /** What the command printed; fails the test if it exits with an error. */
  private static String run(Path dir, String... command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), String.join(" ", command) + " did not end");
    assertEquals(0, p.exitValue(), String.join(" ", command) + " failed:\n" + out);
    return out;
  }
}
