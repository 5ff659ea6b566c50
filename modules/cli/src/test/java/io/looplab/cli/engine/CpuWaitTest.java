package io.looplab.cli.engine;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a grading stopped at its time limit waited for a CPU, and when that makes it the machine's, not the code's. */
class CpuWaitTest {

  @Test
  @DisplayName("a live process's wait for a CPU is read from Linux's scheduler statistics, a finished one's is unknown")
  void readsSchedulerStatistics() throws Exception {
    Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux's /proc only");
    assertTrue(CpuWait.millisOf(ProcessHandle.current()).orElse(-1) >= 0, "this JVM's own wait should be known");
    Process done = new ProcessBuilder("true").start();
    done.waitFor();
    ProcessHandle gone = done.toHandle();
    assertFalse(CpuWait.millisOf(gone).isPresent(), "a process that has ended has no statistics left");
  }

  @Test
  @DisplayName("a grading is the machine's only when it waited for a CPU for more than a quarter of its time limit")
  void tooBusyIsAQuarterOfTheLimit() {
    assertFalse(ReportAssembly.tooBusy(new ForkedJvm.Outcome(true, -1, 0, -1), 30), "unknown is not too busy");
    assertFalse(ReportAssembly.tooBusy(new ForkedJvm.Outcome(true, -1, 0, 7_500), 30));
    assertTrue(ReportAssembly.tooBusy(new ForkedJvm.Outcome(true, -1, 0, 7_501), 30));
    assertEquals(-1, new ForkedJvm.Outcome(false, 0, 0).cpuWaitMillis(), "a JVM not stopped was not measured");
  }
}
