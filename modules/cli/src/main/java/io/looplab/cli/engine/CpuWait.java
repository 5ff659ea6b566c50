package io.looplab.cli.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Stream;

/**
 * How long a process's threads (and its descendants': the JVM inside the sandbox) waited for a CPU while they could
 * have run, read from Linux's per-thread scheduler statistics ({@code /proc/PID/task/TID/schedstat}, whose second
 * field is the time spent runnable on a run queue). On a quiet machine it is a few milliseconds; on one whose cores
 * are all taken it grows with every second the process wanted to run. That tells a grading stopped at its time limit
 * because the machine was too busy from one stopped because the code never finished.
 */
final class CpuWait {

  private CpuWait() {
  }

  /** The time {@code process} and its descendants spent waiting for a CPU, summed over their live threads; empty where unknown. */
  static OptionalLong millisOf(ProcessHandle process) {
    long nanos = 0;
    boolean known = false;
    for (ProcessHandle p : Stream.concat(Stream.of(process), process.descendants()).toList()) {
      OptionalLong waited = nanosOf(p.pid());
      if (waited.isPresent()) {
        nanos += waited.getAsLong();
        known = true;
      }
    }
    return known ? OptionalLong.of(nanos / 1_000_000) : OptionalLong.empty();
  }

  private static OptionalLong nanosOf(long pid) {
    Path tasks = Path.of("/proc", Long.toString(pid), "task");
    try (Stream<Path> threads = Files.list(tasks)) {
      long nanos = 0;
      for (Path thread : threads.toList()) {
        nanos += waitNanos(thread.resolve("schedstat"));
      }
      return OptionalLong.of(nanos);
    } catch (IOException | RuntimeException e) {
      return OptionalLong.empty();        // not Linux, or the process is gone
    }
  }

  private static long waitNanos(Path schedstat) {
    try {
      List<String> fields = List.of(Files.readString(schedstat).trim().split("\\s+"));
      return fields.size() >= 2 ? Long.parseLong(fields.get(1)) : 0;
    } catch (IOException | RuntimeException e) {
      return 0;                           // the thread ended meanwhile
    }
  }
}
