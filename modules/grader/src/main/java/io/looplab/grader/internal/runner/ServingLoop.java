package io.looplab.grader.internal.runner;

import io.looplab.grader.internal.leaks.ThreadCensus;
import io.looplab.grader.internal.scoring.VerdictChannel;
import org.junit.platform.launcher.Launcher;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.List;

/**
 * The {@link GradingJvm.Mode#SERVE} JVM's work: one grading after another in the same JVM, each job's classes in a
 * class loader of their own, so that the JVM's start, the guard's install and the warm-up are paid once per
 * exercise instead of once per grading. For the kit's own variants only (the self-test): they are trusted code,
 * and one that leaves a thread running ends the JVM after its report (see {@link #leftBehind}), so the next job gets
 * a fresh one and nothing it left can disturb another grading.
 */
final class ServingLoop {

  /** Threads that the JVM and the libraries keep, or let linger a second, whatever the code did. */
  private static final List<String> THE_JVMS_OWN = List.of("Common-Cleaner", "process reaper", "Attach Listener",
      "Signal Dispatcher", "Reference Handler", "Finalizer", "Notification Thread", "ForkJoinPool.commonPool",
      "globalEventExecutor", "threadDeathWatcher", "InnocuousThread", "Cleaner-", "Keep-Alive-Timer", "junit-",
      "VirtualThread-unblocker");
  private static final long GRACE_MILLIS = 2_000;

  private final Launcher launcher;
  private final GradingJvm.Arguments session;
  private final BufferedReader jobs;

  /** {@code jobs}: the kit's standard input, its key already read. */
  ServingLoop(Launcher launcher, GradingJvm.Arguments session, BufferedReader jobs) {
    this.launcher = launcher;
    this.session = session;
    this.jobs = jobs;
    // The tests get an empty standard input, as they would in a JVM of their own.
    System.setIn(new ByteArrayInputStream(new byte[0]));
  }

  /** Grades each job it is given, until the end of the input, a line that is not a job, or a job that leaves a thread. */
  void serve() {
    for (GradingJvm.Job job = next(); job != null; job = next()) {
      ThreadCensus before = ThreadCensus.now();
      run(job);
      List<Thread> left = leftBehind(before);
      if (!left.isEmpty()) {
        System.out.println("[looplab] ending this JVM after the job: threads left running: " + left);
      }
      say(job, left.isEmpty() ? "next" : "end");
      if (!left.isEmpty()) {
        return;
      }
    }
  }

  /** Tells the kit the job is over, behind the job's last report on the verdict's channel (see VerdictChannel). */
  private static void say(GradingJvm.Job job, String word) {
    VerdictChannel.sendDone(job.reportFile(), word);
  }

  private GradingJvm.Job next() {
    try {
      return GradingJvm.Job.parse(jobs.readLine());
    } catch (IOException e) {
      return null;
    }
  }

  private void run(GradingJvm.Job job) {
    Thread me = Thread.currentThread();
    ClassLoader previous = me.getContextClassLoader();
    URLClassLoader loader = new URLClassLoader("graded " + job.reportFile().getParent().getFileName(),
        new URL[] {url(job.testClasses()), url(job.classes())}, GradingMain.class.getClassLoader());
    me.setContextClassLoader(loader);
    try {
      launcher.execute(GradingMain.request(new GradingJvm.Arguments(GradingJvm.Mode.RUN, job.testClasses(),
          job.reportFile(), session.exerciseId(), session.title()), String.join(",", job.onlyTests())));
    } finally {
      me.setContextClassLoader(previous);
    }
  }

  /** Threads started during the job and still alive after a grace period, except those the JVM itself keeps. */
  private static List<Thread> leftBehind(ThreadCensus before) {
    try {
      return before.survivorsAfter(GRACE_MILLIS, ServingLoop::isTheJvmsOwn);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return List.of();
    }
  }

  private static boolean isTheJvmsOwn(Thread t) {
    return THE_JVMS_OWN.stream().anyMatch(t.getName()::startsWith) || isIdleCarrier(t);
  }

  /**
   * A carrier of virtual threads (JDK 21 and newer) with none mounted: the JVM starts its carriers at the first
   * virtual thread and keeps them, whoever started that one (in 14 every job did, and every job ended its JVM). A
   * carrier that still runs a virtual thread, or is pinned by one, has a continuation on its stack: the job's.
   */
  private static boolean isIdleCarrier(Thread t) {
    if (!t.getClass().getName().equals("jdk.internal.misc.CarrierThread")) {
      return false;
    }
    for (StackTraceElement frame : t.getStackTrace()) {
      if (frame.getClassName().startsWith("jdk.internal.vm.Continuation")) {
        return false;
      }
    }
    return true;
  }

  private static URL url(java.nio.file.Path dir) {
    try {
      return dir.toUri().toURL();
    } catch (MalformedURLException e) {
      throw new IllegalArgumentException(dir.toString(), e);
    }
  }
}
