package io.looplab.selftest;

import io.looplab.cli.engine.Kit;
import io.looplab.report.ExerciseResult;
import io.looplab.report.ExerciseStatus;
import io.looplab.report.TestResult;
import io.looplab.report.TestStatus;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Submissions that misbehave in every way the grader promises to survive, graded against a one-exercise kit
 * (src/test/resources/hostile-kit: a 2-point pure test and a 3-point handler test). Its time limit is 30 s: a normal
 * run takes about 3 s, and 18 s was seen at a load average of 16 on 2 cores. Each is
 * reported as a result for that exercise, never as a failure of the grader.
 */
@RunsInTheHandoutClone
class HostileSubmissionTest {

  static Kit kit;

  @BeforeAll
  static void copyKit() throws IOException {
    kit = HostileKit.shared();
    for (String submission : List.of("sleeps-5ms-on-loop", "spins-100ms-on-loop", "loops-forever", "never-returns",
        "calls-system-exit", "does-not-compile", "floods-output")) {
      HostileKit.startGrading(kit, submission);
    }
  }

  /**
   * The submission's report; a test of it is aborted, with the reason, when the machine kept the grading from judging
   * (a time limit struck while the machine starved it): there is then no verdict to check, which is no pass.
   */
  static ExerciseResult grade(String submission) throws Exception {
    ExerciseResult r = Gradings.result("hostile " + submission);
    Assumptions.assumeFalse(NotComparable.isTheMachines(r), () -> submission + " was not graded: " + r.message());
    return r;
  }

  static TestResult test(ExerciseResult r, String name) {
    return r.tests().stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
  }

  @Test
  @DisplayName("a single Thread.sleep(5) in a handler loses that test's points, naming the line")
  void sleepOnLoop() throws Exception {
    ExerciseResult r = grade("sleeps-5ms-on-loop");
    assertEquals(2, r.points());
    String message = test(r, "handler does not block the loop").message();
    assertTrue(message.contains("Blocking call") && message.contains("Thread.sleep") && message.contains("Adder.java:5"), message);
  }

  @Test
  @DisplayName("a 100 ms CPU spin in a handler is reported as a stall at the learner's line")
  void spinOnLoop() throws Exception {
    ExerciseResult r = grade("spins-100ms-on-loop");
    assertEquals(2, r.points());
    String message = test(r, "handler does not block the loop").message();
    assertTrue(message.contains("Event loop stalled") && message.contains("Adder.java:4"), message);
  }

  @Test
  @DisplayName("an endless loop on the event loop fails its test at the learner's line, and the other tests still run")
  void endlessLoopOnTheEventLoop() throws Exception {
    ExerciseResult r = grade("loops-forever");
    assertEquals(ExerciseStatus.FAILED, r.status(), "the loop is seen and its test fails, without waiting for the "
        + "time limit");
    assertEquals(2, r.points(), "the test that does not reach the loop keeps its points");
    String message = test(r, "handler does not block the loop").message();
    assertTrue(message.contains("Event loop stalled") && message.contains("Adder.java:4"), message);
  }

  @Test
  @DisplayName("a method that never returns, on the test's own thread, is stopped at the time limit and reported as "
      + "a timeout")
  void neverReturnsIsStoppedAtTheTimeLimit() throws Exception {
    ExerciseResult r = grade("never-returns");
    long seconds = Gradings.timed("hostile never-returns").millis() / 1000;
    assertEquals(ExerciseStatus.TIMEOUT, r.status(), KitSelfTest.failures(r));
    assertEquals(0, r.points());
    assertEquals(5, r.max(), "max never changes, whatever happened");
    assertEquals(TestStatus.TIMEOUT, test(r, "adds two numbers").status());
    String message = test(r, "adds two numbers").message();
    assertTrue(message.contains("the test's thread was still running your code, add() at Adder.java:3 (the test "
        + "called it at AdderTest.java:"), "the timeout should say where the test was stuck: " + message);
    assertTrue(seconds < 30 + 30, "stopping took " + seconds + " s");
  }

  @Test
  @DisplayName("System.exit is reported as a crash of that exercise, with the test it happened in")
  void systemExit() throws Exception {
    ExerciseResult r = grade("calls-system-exit");
    assertEquals(ExerciseStatus.CRASHED, r.status());
    assertEquals(0, r.points());
    assertEquals(5, r.max(), "max never changes, whatever happened");
    assertTrue(test(r, "adds two numbers").message().contains("exit status 3"), test(r, "adds two numbers").message());
  }

  @Test
  @DisplayName("a compile error is reported with the file and line, and max stays the same")
  void compileError() throws Exception {
    ExerciseResult r = grade("does-not-compile");
    assertEquals(ExerciseStatus.COMPILE_ERROR, r.status());
    assertEquals(5, r.max());
    assertTrue(r.message().contains("Adder.java:3"), r.message());
  }

  @Test
  @DisplayName("a flood of output neither breaks grading nor fills the disk")
  void outputFlood() throws Exception {
    ExerciseResult r = grade("floods-output");
    assertEquals(5, r.points());
    try (Stream<Path> logs = Files.walk(kit.workDir()).filter(p -> p.getFileName().toString().equals("output.log"))) {
      assertTrue(logs.allMatch(p -> p.toFile().length() <= (1 << 20)), "output logs are capped at 1 MiB");
    }
  }
}
