package io.looplab.selftest;

import io.looplab.grader.scoring.ExerciseReport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Gradings started ahead and collected by name when a test needs the result. A grading spends much of its time
 * starting a JVM or waiting (a time limit, a bounded wait), so the self-test keeps {@link #PARALLEL} of them going
 * at once, shared by every test class (the classes run side by side, see junit-platform.properties).
 */
final class Gradings {

  /** 2 fills this kind of 2-core machine without starving the graded tests' own event loops. */
  private static final int PARALLEL = Integer.getInteger("looplab.selftest.parallel", 2);

  private static final ExecutorService pool = Executors.newFixedThreadPool(PARALLEL, task -> {
    Thread t = new Thread(task, "selftest-grading");
    t.setDaemon(true);
    return t;
  });
  private static final Map<String, Future<Timed>> started = new ConcurrentHashMap<>();
  private static final Path TIMINGS = Path.of("target", "selftest-gradings.tsv");

  static {
    try {
      Files.deleteIfExists(TIMINGS);
    } catch (IOException e) {
      // only a measurement
    }
  }

  /** A report, and how long its grading took once it started (the wait in the queue excluded). */
  record Timed(ExerciseReport report, long millis) {
  }

  private Gradings() {
  }

  static void start(String name, Callable<ExerciseReport> grading) {
    started.put(name, pool.submit(() -> {
      long begin = System.nanoTime();
      ExerciseReport report = grading.call();
      Timed timed = new Timed(report, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin));
      log(name + "\t" + timed.millis() + "\t" + report.points() + "/" + report.max());
      return timed;
    }));
  }

  /** One line per grading in target/selftest-gradings.tsv, for seeing where the self-test's time goes. */
  private static synchronized void log(String line) {
    try {
      Files.writeString(TIMINGS, line + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    } catch (IOException e) {
      // only a measurement
    }
  }

  static ExerciseReport result(String name) throws Exception {
    return timed(name).report();
  }

  static Timed timed(String name) throws Exception {
    Future<Timed> grading = started.get(name);
    if (grading == null) {
      throw new IllegalStateException("no grading named '" + name + "' was started");
    }
    try {
      return grading.get(30, TimeUnit.MINUTES);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof Exception cause ? cause : e;
    }
  }
}
