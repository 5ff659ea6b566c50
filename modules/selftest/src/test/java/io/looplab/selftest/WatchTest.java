package io.looplab.selftest;

import io.looplab.cli.engine.Kit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * lab watch end to end, on a copy of the one-exercise hostile kit: a save brings the new verdict, a hostile save (an
 * endless loop, System.exit) costs that check alone, and watch moves on at full marks and leaves no JVM behind.
 * Each wait is bounded by the kit's 30-s time limit plus a wide margin for a loaded machine.
 */
@RunsInTheHandoutClone
class WatchTest {

  private static final Duration VERDICT = Duration.ofSeconds(75);

  @TempDir
  Path work;
  Kit kit;

  @BeforeEach
  void copyKit() throws IOException {
    kit = HostileKit.copyTo(work.resolve("kit"));
  }

  @Test
  @DisplayName("each save brings a new verdict; an exit and an endless loop cost their check alone; full marks end it")
  void savesBringVerdicts() throws Exception {
    try (WatchSession watch = new WatchSession(kit, "01-smoke", true)) {
      watch.awaitOutput("✗ 01-smoke 3/5", VERDICT);

      save("calls-system-exit");
      String crash = watch.awaitOutput("s after the save)", VERDICT);
      assertTrue(crash.contains("✗ 01-smoke 0/5 · 0 of 2 tests pass · crashed"), "System.exit ends the check alone, "
          + "as a crash:\n" + crash);

      save("never-returns");
      watch.awaitOutput("testing", VERDICT);
      save("solution");
      String fixed = watch.awaitOutput("✓ 01-smoke 5/5 full marks", VERDICT);
      assertTrue(!fixed.contains("timeout"), "the save stopped the endless grading before its time limit:\n" + fixed);
      watch.awaitOutput("Every exercise of the kit has full marks", VERDICT);
      assertTrue(watch.ended(Duration.ofSeconds(20)), "watch should end once every exercise has full marks");
      assertNull(watch.failure());
    }
    assertNoGradingJvmLeft();
  }

  @Test
  @DisplayName("q stops watching, and no grading JVM (not even the spare) is left behind")
  void quitStops() throws Exception {
    try (WatchSession watch = new WatchSession(kit, "01", false)) {
      watch.awaitOutput("✗ 01-smoke 3/5", VERDICT);
      watch.press('q');
      watch.awaitOutput("Stopped watching.", Duration.ofSeconds(20));
      assertTrue(watch.ended(Duration.ofSeconds(20)), "watch should return after q");
    }
    assertNoGradingJvmLeft();
  }

  private void save(String submission) throws IOException {
    HostileKit.saveAdder(kit.root(), submission);
  }

  /** Every JVM watch started (gradings, the spare) is gone within a bounded wait: their pipes were closed. */
  private void assertNoGradingJvmLeft() throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (true) {
      long left;
      try (Stream<ProcessHandle> children = ProcessHandle.current().children()) {
        left = children.filter(p -> p.info().commandLine().orElse("").contains(work.toString())).count();
      }
      if (left == 0) {
        return;
      }
      assertTrue(System.nanoTime() < deadline, left + " grading JVM(s) of watch still running");
      ProcessHandle.current().children().filter(p -> p.info().commandLine().orElse("").contains(work.toString()))
          .findFirst().ifPresent(p -> p.onExit().orTimeout(1, java.util.concurrent.TimeUnit.SECONDS).exceptionally(
              e -> p).join());
    }
  }
}
