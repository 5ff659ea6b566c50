package io.looplab.cli.engine;

import io.looplab.grader.internal.runner.GradingJvm;
import io.looplab.grader.internal.scoring.VerdictFormat;
import io.looplab.grader.internal.scoring.VerdictStream;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs the graded tests of one exercise in a JVM of their own. The learner's code may hang, exit, or flood its
 * output: the JVM is killed at the time limit, its exit status is kept, and its output goes to a log file that
 * stops growing at {@value #MAX_LOG_BYTES} bytes. Its verdict comes back signed, on the same output
 * ({@link VerdictFormat}): the JVM's key is the first line it is sent.
 */
final class ForkedJvm {

  static final long MAX_LOG_BYTES = 1 << 20;

  /** How long a JVM stopped at the time limit gets to say where its tests are: a thread dump takes milliseconds. */
  static final long WHERE_MILLIS = 2_000;

  /**
   * How it ended: normally, by the time limit, or with a non-zero exit status; for a JVM stopped at the time limit,
   * how long its threads had waited for a CPU by then ({@link CpuWait}; -1 when unknown or not stopped).
   */
  record Outcome(boolean timedOut, int exitCode, long droppedBytes, long cpuWaitMillis) {

    Outcome(boolean timedOut, int exitCode, long droppedBytes) {
      this(timedOut, exitCode, droppedBytes, -1);
    }
  }

  /**
   * The grading JVM's command line: the {@code launcher} (a java), its flags, then {@code options}, the class path,
   * the runner and its arguments.
   */
  static List<String> command(Path launcher, List<Path> classpath, GradingJvm.Arguments args, List<String> options) {
    List<String> cmd = new ArrayList<>();
    cmd.add(launcher.toString());
    cmd.addAll(GradingJvm.flags());
    cmd.addAll(options);
    cmd.add("-cp");
    cmd.add(String.join(java.io.File.pathSeparator, classpath.stream().map(Path::toString).toList()));
    cmd.add(GradingJvm.RUNNER);
    cmd.addAll(args.toList());
    return cmd;
  }

  private final Process process;
  private final VerdictStream verdicts;
  private final Thread drain;
  private final long[] dropped = {0};

  private ForkedJvm(Process process, Path log, byte[] key) {
    this.process = process;
    this.verdicts = new VerdictStream(key);
    this.drain = new Thread(() -> dropped[0] = JvmOutput.drain(process.getInputStream(), log, MAX_LOG_BYTES,
        verdicts), "lab-output-drain");
    drain.setDaemon(true);
    drain.start();
  }

  /**
   * Starts the JVM and sends it its key; with the runner's {@code --wait-for-go}, it gets ready and then waits for
   * {@link #go()}.
   */
  static ForkedJvm start(List<String> command, Path log) throws IOException {
    byte[] key = VerdictFormat.newKey();
    ForkedJvm jvm = new ForkedJvm(new ProcessBuilder(command).redirectErrorStream(true).start(), log, key);
    jvm.tell(VerdictFormat.keyLine(key));
    return jvm;
  }

  /** What the JVM has said of its gradings so far, checked. */
  VerdictStream verdicts() {
    return verdicts;
  }

  /** Runs a JVM that needs no handshake, to the end or the time limit. */
  static Outcome run(List<String> command, Path log, long timeoutSeconds, Consumer<Long> tick)
      throws IOException, InterruptedException {
    ForkedJvm jvm = start(command, log);
    try {
      jvm.process.getOutputStream().close();
    } catch (IOException e) {
      // it has ended already, before reading its key: await() says how
    }
    return jvm.await(timeoutSeconds, tick);
  }

  /** How long its threads have waited for a CPU so far ({@link CpuWait}), or -1 where that is unknown. */
  long cpuWaitMillis() {
    return CpuWait.millisOf(process.toHandle()).orElse(-1);
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /**
   * Tells a waiting JVM to run the tests. Its standard input stays open: at the time limit, {@link #await} asks it
   * where the tests are ({@link GradingJvm#WHERE}) before it stops it.
   */
  void go() {
    tell(GradingJvm.GO);
  }

  /** Tells a waiting JVM that there is nothing to run (the code did not compile), and lets it exit. */
  void cancel() throws InterruptedException {
    say(GradingJvm.STOP);
    if (!process.waitFor(5, TimeUnit.SECONDS)) {
      kill();
    }
  }

  /** Writes one line to a serving JVM's standard input and keeps it open; false when the JVM is gone. */
  boolean tell(String line) {
    try {
      OutputStream in = process.getOutputStream();
      in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      in.flush();
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private void say(String word) {
    try (OutputStream in = process.getOutputStream()) {
      in.write((word + "\n").getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      // the JVM is already gone; await() reports how it ended
    }
  }

  /** Waits for the JVM to end, killing it (and anything it started) at the time limit. */
  Outcome await(long timeoutSeconds, Consumer<Long> tick) throws InterruptedException {
    return await(timeoutSeconds, tick, null);
  }

  /**
   * As {@link #await(long, Consumer)}; at the time limit, first asks a JVM that was told {@link #go()} where its tests
   * are, and gives it {@value #WHERE_MILLIS} ms to answer with its verdict for {@code job} (null: do not ask).
   */
  Outcome await(long timeoutSeconds, Consumer<Long> tick, Path job) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
    boolean timedOut = false;
    long cpuWait = -1;
    while (!process.waitFor(200, TimeUnit.MILLISECONDS)) {
      tick.accept(TimeUnit.NANOSECONDS.toSeconds(deadline - System.nanoTime()));
      if (System.nanoTime() > deadline) {
        timedOut = true;
        cpuWait = cpuWaitMillis();
        if (job != null) {
          askWhere(job);
        }
        kill();
        break;
      }
    }
    closeInput();
    drain.join(2_000);
    return new Outcome(timedOut, timedOut ? -1 : process.exitValue(), dropped[0], cpuWait);
  }

  private void askWhere(Path job) throws InterruptedException {
    if (!tell(GradingJvm.WHERE)) {
      return;
    }
    long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WHERE_MILLIS);
    while (verdicts.where(job).isEmpty() && process.isAlive() && System.nanoTime() < until) {
      Thread.sleep(20); // polling what the output's reader has taken in; no ordering depends on this wait
    }
  }

  private void closeInput() {
    try {
      process.getOutputStream().close();
    } catch (IOException e) {
      // already closed, or the JVM is gone
    }
  }

  void kill() throws InterruptedException {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
    process.waitFor(10, TimeUnit.SECONDS);
  }
}
