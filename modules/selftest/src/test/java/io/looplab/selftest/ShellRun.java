package io.looplab.selftest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A command run to its end in a folder, its output kept in a log file, for tests that drive the kit from outside as
 * a user would (git, ./lab, mvn). A command that outlives its limit is killed, with its children.
 *
 * @param exit    the exit status, or -1 when the command was killed at its limit
 * @param log     where its standard output and error went, together
 * @param seconds how long it ran
 */
record ShellRun(int exit, Path log, long seconds) {

  static ShellRun of(Path dir, Path log, long limitSeconds, List<String> command)
      throws IOException, InterruptedException {
    return start(dir, log, limitSeconds, command).await();
  }

  /** Starts the command and returns at once, for two commands that may run side by side; {@link Running#await}. */
  static Running start(Path dir, Path log, long limitSeconds, List<String> command) throws IOException {
    Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
        .redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
        .start();
    return new Running(p, log, limitSeconds, System.nanoTime());
  }

  /** A command started by {@link #start}; its limit counts from its start, not from the call to await. */
  record Running(Process process, Path log, long limitSeconds, long startNanos) {

    ShellRun await() throws InterruptedException {
      long left = limitSeconds * 1_000_000_000L - (System.nanoTime() - startNanos);
      boolean ended = process.waitFor(Math.max(0, left), TimeUnit.NANOSECONDS);
      if (!ended) {
        kill();
      }
      return new ShellRun(ended ? process.exitValue() : -1, log,
          TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startNanos));
    }

    /** Kills the command and its children, if it still runs (a test class that ends early leaves nothing behind). */
    void kill() throws InterruptedException {
      if (process.isAlive()) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly().waitFor();
      }
    }
  }

  String output() throws IOException {
    return Files.readString(log, java.nio.charset.StandardCharsets.ISO_8859_1);
  }

  /** The last lines of the output, for a failure message. */
  String tail(int lines) throws IOException {
    List<String> all = output().lines().toList();
    return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
  }
}
