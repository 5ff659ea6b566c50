package io.looplab.cli.engine;

import io.looplab.grader.internal.runner.GradingJvm;

import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A grading JVM in {@link GradingJvm.Mode#SERVE} mode, seen from the kit: it is handed one job at a time, and each
 * job ends with its done file, the JVM's end, or the time limit (the JVM is then killed). For the self-test's own
 * variants only: see {@link GradingEngine#gradeTogether}.
 */
final class ServingJvm {

  /** How one job ended: its done file said "next" or "end", or the JVM ended, or it ran out of time. */
  enum Ending { NEXT, END, JVM_ENDED, TIME_LIMIT }

  private final ForkedJvm jvm;
  private final Path log;
  /** How long its threads waited for a CPU during the last job that ran into the time limit; -1: unknown. */
  private long cpuWaitOfLastJob = -1;

  ServingJvm(ForkedJvm jvm, Path log) {
    this.jvm = jvm;
    this.log = log;
  }

  Path log() {
    return log;
  }

  /** What the JVM has said of its jobs so far, checked. */
  io.looplab.grader.internal.scoring.VerdictStream verdicts() {
    return jvm.verdicts();
  }

  /**
   * Hands it a job and waits for the job to end, at most {@code limitSeconds}: the JVM says "next" or "end" on its
   * verdict's channel, behind the job's last report, so that report has been read when this returns.
   */
  Ending run(GradingJvm.Job job, long limitSeconds) throws InterruptedException {
    if (!jvm.tell(job.toLine())) {
      return Ending.JVM_ENDED;
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(limitSeconds);
    long waitedBefore = jvm.cpuWaitMillis();
    while (true) {
      Optional<String> word = jvm.verdicts().done(job.reportFile());
      if (word.isPresent()) {
        return word.get().equals("end") ? Ending.END : Ending.NEXT;
      }
      if (!jvm.isAlive()) {
        jvm.await(10, left -> { });     // its output read to the end: it may have said the word just before
        word = jvm.verdicts().done(job.reportFile());
        return word.isEmpty() ? Ending.JVM_ENDED : word.get().equals("end") ? Ending.END : Ending.NEXT;
      }
      if (System.nanoTime() > deadline) {
        long waited = jvm.cpuWaitMillis();
        cpuWaitOfLastJob = waited < 0 || waitedBefore < 0 ? -1 : waited - waitedBefore;
        jvm.kill();
        return Ending.TIME_LIMIT;
      }
      Thread.sleep(50); // polling what the output's reader has taken in; no ordering depends on this wait
    }
  }

  /** How long the JVM waited for a CPU during the job that ran into the time limit (see ReportAssembly#tooBusy). */
  long cpuWaitOfLastJob() {
    return cpuWaitOfLastJob;
  }

  /** Its outcome once it has ended (killed, or exited after a job): its exit status and the output it dropped. */
  ForkedJvm.Outcome ended() throws InterruptedException {
    return jvm.await(10, left -> { });
  }

  /** Ends the session: no more jobs. */
  void close() throws InterruptedException {
    jvm.cancel();
  }

}
