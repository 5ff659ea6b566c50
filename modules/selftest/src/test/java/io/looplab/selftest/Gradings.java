package io.looplab.selftest;

import io.looplab.grader.internal.settings.Settings;

import io.looplab.cli.engine.GradingEngine;
import io.looplab.cli.engine.Kit;
import io.looplab.report.ExerciseResult;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Gradings started ahead and collected by name when a test needs the result. A grading spends much of its time
 * starting a JVM or waiting (a time limit, a bounded wait), so the self-test keeps {@link #PARALLEL} of them going
 * at once, shared by every test class (the classes run side by side, see junit-platform.properties).
 */
final class Gradings {

  /** Runs {@code work} with a grading engine of the kit's, closed after (its spare JVMs and kept tests with it). */
  static <T> T withEngine(Kit kit, Function<GradingEngine, T> work) {
    try (GradingEngine engine = new GradingEngine(kit, false)) {
      return work.apply(engine);
    }
  }

  /**
   * One more than the cores: a grading spends part of its time waiting (a JVM starting, a bounded wait, a time
   * limit), and with two lanes on this kind of 2-core machine vmstat showed the CPU idle for 23% of the run. An
   * exercise's own gradings still take {@link #lanesPerExercise()} lanes at most, so 13's node pairs never form
   * three clusters at once: with 3 lanes and 13 split in three, its gradings took 264 to 342 s against 192 to 199 s.
   */
  private static final int PARALLEL = (int) Settings.SELFTEST_PARALLEL.asLong(cores() + 1);

  private static final ExecutorService pool = Executors.newFixedThreadPool(PARALLEL, task -> {
    Thread t = new Thread(task, "selftest-grading");
    t.setDaemon(true);
    return t;
  });
  private static final Map<String, CompletableFuture<Timed>> started = new ConcurrentHashMap<>();
  private static final Path TIMINGS = Path.of("target", "selftest-gradings.tsv");
  private static final long T0 = System.nanoTime();

  static {
    try {
      Files.deleteIfExists(TIMINGS);
    } catch (IOException e) {
      // only a measurement
    }
  }

  /** A report, and how long its grading took once it started (the wait in the queue excluded). */
  record Timed(ExerciseResult report, long millis) {
  }

  private Gradings() {
  }

  /**
   * Queues work that is not one grading (a whole class of them, say) on the same queue, so that it takes one of the
   * {@link #PARALLEL} places instead of adding to them.
   */
  static <T> CompletableFuture<T> queue(String name, Callable<T> work) {
    CompletableFuture<T> future = new CompletableFuture<>();
    pool.execute(() -> {
      try {
        long begin = System.nanoTime();
        T result = work.call();
        log(name + "\t" + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin) + "\t-", begin);
        future.complete(result);
      } catch (Throwable e) {
        future.completeExceptionally(e);
      }
    });
    return future;
  }

  /** Queues a grading, unless one of that name was already queued (by another test class); returns its name. */
  static synchronized String startOnce(String name, Callable<ExerciseResult> grading) {
    return started.containsKey(name) ? name : start(name, grading);
  }

  /** Queues a grading and returns its name. */
  static synchronized String start(String name, Callable<ExerciseResult> grading) {
    CompletableFuture<Timed> future = new CompletableFuture<>();
    started.put(name, future);
    pool.execute(() -> {
      try {
        long begin = System.nanoTime();
        ExerciseResult report = grading.call();
        Timed timed = new Timed(report, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin));
        log(name + "\t" + timed.millis() + "\t" + report.points() + "/" + report.max(), begin);
        future.complete(timed);
      } catch (Throwable e) {
        future.completeExceptionally(e);
      }
    });
    return name;
  }

  /**
   * Queues gradings that run one after another in one JVM (see GradingEngine.gradeTogether) under their names: the
   * work returns their reports in the order of {@code names}. Each is timed as its share of the whole.
   */
  static synchronized List<String> startTogether(List<String> names, Callable<List<ExerciseResult>> gradings) {
    List<CompletableFuture<Timed>> futures = names.stream().map(n -> new CompletableFuture<Timed>()).toList();
    for (int i = 0; i < names.size(); i++) {
      started.put(names.get(i), futures.get(i));
    }
    pool.execute(() -> {
      try {
        long begin = System.nanoTime();
        List<ExerciseResult> reports = gradings.call();
        long share = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin) / Math.max(1, names.size());
        for (int i = 0; i < names.size(); i++) {
          log(names.get(i) + "\t" + share + "\t" + reports.get(i).points() + "/" + reports.get(i).max(), begin);
          futures.get(i).complete(new Timed(reports.get(i), share));
        }
      } catch (Throwable e) {
        futures.forEach(f -> f.completeExceptionally(e));
      }
    });
    return names;
  }

  /** The self-test splits an exercise's gradings into this many shared JVMs: no more lanes than cores. */
  static int lanesPerExercise() {
    return Math.min(cores(), PARALLEL);
  }

  private static int cores() {
    return Math.max(1, Runtime.getRuntime().availableProcessors());
  }

  /** What to do once every named grading is over: their reports (a grading that threw is absent) and their total time. */
  interface Summary {
    void of(Map<String, ExerciseResult> reports, long seconds);
  }

  static void whenDone(List<String> names, Summary summary) {
    CompletableFuture<?>[] all = names.stream().map(started::get).toArray(CompletableFuture[]::new);
    CompletableFuture.allOf(all).handle((ok, failure) -> {
      Map<String, ExerciseResult> reports = new LinkedHashMap<>();
      long millis = 0;
      for (String name : names) {
        CompletableFuture<Timed> f = started.get(name);
        if (!f.isCompletedExceptionally()) {
          reports.put(name, f.join().report());
          millis += f.join().millis();
        }
      }
      summary.of(reports, TimeUnit.MILLISECONDS.toSeconds(millis));
      return null;
    });
  }

  /**
   * One line per grading (or other queued work) in target/selftest-gradings.tsv, for seeing where the self-test's
   * time goes: its name, its time, its score, and when it started and ended, in seconds from the first one queued.
   */
  private static synchronized void log(String line, long beginNanos) {
    long start = TimeUnit.NANOSECONDS.toSeconds(beginNanos - T0);
    long end = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - T0);
    try {
      Files.writeString(TIMINGS, line + "\t" + start + "\t" + end + "\n", StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    } catch (IOException e) {
      // only a measurement
    }
  }

  static ExerciseResult result(String name) throws Exception {
    return timed(name).report();
  }

  static Timed timed(String name) throws Exception {
    CompletableFuture<Timed> grading = started.get(name);
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
