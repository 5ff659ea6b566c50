package io.looplab.selftest;

import io.looplab.cli.engine.GradingEngine;
import io.looplab.cli.engine.Kit;
import io.looplab.cli.engine.Target;
import io.looplab.report.ExerciseResult;
import io.looplab.report.TestResult;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The self-test grades the kit's own variants several to a JVM (GradingEngine.gradeTogether). Each report must be
 * the one a JVM of its own gives, whatever the jobs before it did: left a thread running, ended the JVM with
 * System.exit, or ran into the time limit. Checked on the hostile kit, against the same submissions graded one to a
 * JVM as `./lab grade --submission` grades them.
 */
@RunsInTheHandoutClone
class SharedJvmTest {

  /** In this order, so that each kind of trouble is followed by a job that must not suffer from it. */
  private static final List<String> JOBS = List.of("solution", "sleeps-5ms-on-loop", "leaves-a-thread", "solution",
      "calls-system-exit", "spins-100ms-on-loop", "never-returns", "stub", "does-not-compile", "solution");

  static Kit kit;
  static CompletableFuture<List<ExerciseResult>> together;

  @BeforeAll
  static void startGradings() throws IOException {
    kit = HostileKit.shared();
    JOBS.stream().distinct().forEach(name -> HostileKit.startGrading(kit, name));
    List<GradingEngine.Job> jobs = JOBS.stream()
        .map(name -> new GradingEngine.Job(Target.submission(kit, HostileKit.submissionFolder(name)), List.of()))
        .toList();
    together = Gradings.queue("shared-jvm hostile jobs",
        () -> Gradings.withEngine(kit, engine -> engine.gradeTogether(kit.find("01-smoke"), jobs)));
  }

  /** A report's verdicts: the exercise's status and points, and each test's status and points. */
  private static String verdicts(ExerciseResult r) {
    return r.status() + " " + r.points() + "/" + r.max() + r.tests().stream()
        .map((TestResult t) -> " [" + t.name() + ": " + t.status() + " " + t.points() + "]")
        .collect(Collectors.joining());
  }

  @Test
  @DisplayName("each job graded in a shared JVM gets the verdicts a JVM of its own gives it")
  void sameVerdictsAsAJvmEach() throws Exception {
    List<ExerciseResult> shared = together.get(30, TimeUnit.MINUTES);
    NotComparable notComparable = new NotComparable("shared JVM against a JVM each");
    for (int i = 0; i < JOBS.size(); i++) {
      ExerciseResult alone = Gradings.result("hostile " + JOBS.get(i));
      String job = "job " + (i + 1) + " (" + JOBS.get(i) + ") after " + JOBS.subList(0, i);
      if (notComparable.compare(job, alone, shared.get(i))) {
        assertEquals(verdicts(alone), verdicts(shared.get(i)), job);
      }
    }
    notComparable.report();
  }

  @Test
  @DisplayName("a job that leaves a thread, exits or runs out of time ends its JVM, and the next job gets a new one")
  void troubleEndsTheJvm() throws Exception {
    // A job the machine kept from judging was graded again in a JVM of its own, and one that ran into the time limit
    // because the machine starved it ended its JVM: the count below then says nothing about the jobs' own trouble.
    Assumptions.assumeTrue(together.get(30, TimeUnit.MINUTES).stream().noneMatch(NotComparable::isTheMachines),
        "a job was not graded for the machine's reasons: the JVMs started are not the jobs' doing");
    try (Stream<Path> serving = Files.list(kit.workDir().resolve("serve"))) {
      // solution, sleeps, leaves-a-thread | solution, exit | spins, never-returns | stub (does-not-compile: none)
      assertEquals(4, serving.count(), "serving JVMs started");
    }
  }
}
