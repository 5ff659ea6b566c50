package io.looplab.cli.engine;

import io.looplab.grader.internal.runner.GradingJvm;
import io.looplab.grader.internal.scoring.VerdictStream;
import io.looplab.report.ExerciseResult;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Grades one exercise of one target, in steps that each have a class of their own: where the code and tests come
 * from ({@link GradingSources}), the build ({@link SubmissionBuild}: check, compile, refuse what reaches for the
 * grader, compile the kit's pristine tests against it), the run (a forked JVM under the exercise's time limit, started
 * ahead while the build runs: {@link ForkedJvm}, {@link SpareJvms}, {@link ServingJvm}), and the report
 * ({@link ReportAssembly}, checked against the exercise's plan, {@link ExercisePlans}). This class runs the steps in
 * order and grades again what the grader, not the code, failed. A compile error, a crash or a hang is a result for
 * that exercise, never an error of the grader.
 */
public final class GradingEngine implements AutoCloseable {

  /** Told what the grader is doing, for a progress line. */
  public interface Progress {
    void update(Exercise exercise, String doing);
  }

  private final Kit kit;
  private final Originals originals;
  private final SubmissionBuild build;
  private final ReportAssembly assembly;
  private final boolean debug;
  private final Sandbox sandbox;
  private final SpareJvms spares = new SpareJvms();
  private final CompiledTests compiledTests;
  private final WorkDirs workDirs;
  private volatile ForkedJvm current;
  private volatile boolean cancelled;
  private volatile Path lastLog;
  private boolean compilerTrained;

  public GradingEngine(Kit kit, boolean debug) {
    this(kit, debug, null);
  }

  /** With {@code sandbox} (null for none), every grading JVM runs confined by it: for other people's code. */
  public GradingEngine(Kit kit, boolean debug, Sandbox sandbox) {
    this.workDirs = new WorkDirs(kit);
    this.compiledTests = new CompiledTests(kit.workDir().resolve("compiled-tests"));
    this.kit = kit;
    this.originals = Originals.of(kit);
    SourceCompiler compiler = new SourceCompiler();
    ExercisePlans plans = new ExercisePlans(kit, originals, compiler);
    this.build = new SubmissionBuild(kit, compiler, compiledTests, plans);
    this.assembly = new ReportAssembly(plans);
    this.debug = debug;
    this.sandbox = sandbox;
  }

  public ExerciseResult grade(Exercise exercise, Target target, Progress progress) {
    return grade(exercise, target, progress, List.of());
  }

  /**
   * Grades only the test methods named in {@code onlyTests} (all of them when it is empty). The report then lists
   * only those tests, and its max is theirs. The kit's self-test uses it to run just the test a mutant must fail.
   */
  public ExerciseResult grade(Exercise exercise, Target target, Progress progress, List<String> onlyTests) {
    try {
      ExerciseResult report = gradeOrThrow(exercise, target, progress, onlyTests);
      if (report.isNotGraded() && !cancelled) {
        // The grader or the machine failed (a warm-up out of time on a crowded machine, say): that is never the
        // code's lost point, so the exercise is graded once more, in a JVM of its own, before it is reported.
        progress.update(exercise, "not graded: grading again");
        report = gradeOrThrow(exercise, target, progress, onlyTests);
      }
      return report;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  private ExerciseResult gradeOrThrow(Exercise exercise, Target target, Progress progress, List<String> onlyTests)
      throws IOException, InterruptedException {
    List<String> options = options(exercise, onlyTests);
    // The test JVM starts first and gets ready (about a second) while this JVM compiles; a spare started after the
    // last grading of this exercise is readier still. Either way it has run nothing yet: every grading gets a JVM
    // of its own, so nothing a learner's code did last time carries over.
    Optional<WaitingJvm> spare = spares.take(exercise, target, options);
    WaitingJvm waiting = spare.isPresent() ? spare.get()
        : startWaiting(exercise, target, options, workDirs.next(exercise, target), false);
    cancelled = false;
    current = waiting.jvm();
    try {
      return gradeIn(waiting, exercise, target, progress);
    } finally {
      current = null;
      lastLog = waiting.log();
      WorkDirs.pointToLatestLog(exercise, target, kit, waiting.log());
    }
  }

  private ExerciseResult gradeIn(WaitingJvm waiting, Exercise exercise, Target target, Progress progress)
      throws IOException, InterruptedException {
    ForkedJvm jvm = waiting.jvm();
    GradingSources sources = GradingSources.of(exercise, target, originals);
    try {
      Optional<ExerciseResult> notRun = build.build(exercise, sources, waiting.classes(), waiting.testClasses(),
          progress);
      if (notRun.isPresent()) {
        jvm.cancel();
        return notRun.get();
      }
      progress.update(exercise, "starting the tests");
      jvm.go();
    } catch (RuntimeException | Error e) {
      jvm.kill();
      throw e;
    }
    long limit = limit(exercise);
    ForkedJvm.Outcome outcome = jvm.await(limit,
        left -> progress.update(exercise, testingLine(jvm.verdicts(), waiting.reportFile())), waiting.reportFile());
    if (cancelled) {
      return ExerciseResult.of(exercise.id(), exercise.title(), List.of())
          .withNote("Stopped before it finished: a newer grading replaced it.");
    }
    return assembly.conclude(exercise, sources, new ReportAssembly.Verdict(jvm.verdicts(), waiting.reportFile(),
        List.of(), waiting.classes()), waiting.log(), outcome, limit);
  }

  /** One grading of {@link #gradeTogether}: a target, and the test methods to run (all when empty). */
  public record Job(Target target, List<String> onlyTests) {
  }

  /**
   * Grades several targets of one exercise, job after job in one JVM (the runner's serve mode), each job's classes
   * in a class loader of their own: a JVM's start and the guard's install are paid once, not once per grading. Each
   * report is the one {@link #grade} would give. A job that runs out of time, ends the JVM or leaves a thread
   * running ends that JVM; the next job gets a new one.
   *
   * <p>Only for the kit's own variants (the self-test's solutions, alternatives, mutants and stubs): a JVM shared by
   * several gradings does not keep them apart the way a JVM each does, so a learner's code is never graded this way.
   */
  public List<ExerciseResult> gradeTogether(Exercise exercise, List<Job> jobs) {
    List<ExerciseResult> reports = new ArrayList<>();
    ServingJvm jvm = null;
    try {
      for (Job job : jobs) {
        Path work = FileTrees.fresh(workDirs.next(exercise, job.target()));
        Path classes = Files.createDirectories(work.resolve("classes"));
        Path testClasses = Files.createDirectories(work.resolve("test-classes"));
        GradingSources sources = GradingSources.of(exercise, job.target(), originals);
        Optional<ExerciseResult> notRun = build.build(exercise, sources, classes, testClasses, (e, d) -> { });
        if (notRun.isPresent()) {
          reports.add(notRun.get());
          continue;
        }
        if (jvm == null) {
          jvm = startServing(exercise);
        }
        GradingJvm.Job line = new GradingJvm.Job(classes, testClasses, work.resolve("report.json"), job.onlyTests());
        long limit = limit(exercise);
        ServingJvm.Ending ending = jvm.run(line, limit);
        ForkedJvm.Outcome outcome = switch (ending) {
          case NEXT, END -> new ForkedJvm.Outcome(false, 0, 0);
          case JVM_ENDED -> jvm.ended();
          case TIME_LIMIT -> new ForkedJvm.Outcome(true, -1, jvm.ended().droppedBytes(), jvm.cpuWaitOfLastJob());
        };
        if (ending == ServingJvm.Ending.END) {
          jvm.ended();
        }
        ExerciseResult report = assembly.conclude(exercise, sources, new ReportAssembly.Verdict(jvm.verdicts(),
            line.reportFile(), job.onlyTests(), classes), jvm.log(), outcome, limit);
        if (ending != ServingJvm.Ending.NEXT) {
          jvm = null;
        }
        if (report.isNotGraded()) {
          // as in grade(): the grader's failure is graded again, here in a JVM of its own
          report = grade(exercise, job.target(), (e, doing) -> { }, job.onlyTests());
        }
        reports.add(report);
      }
      return reports;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } finally {
      if (jvm != null) {
        try {
          jvm.close();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  private ServingJvm startServing(Exercise exercise) throws IOException {
    // Several engines may serve the same exercise at once (the self-test splits its gradings): a folder each.
    Path work = Files.createTempDirectory(Files.createDirectories(kit.workDir().resolve("serve")), exercise.id() + "-");
    Path log = work.resolve("output.log");
    List<String> options = options(exercise, List.of());
    ClassArchive.of(kit, exercise).ifPresent(archive -> options.addAll(archive.options()));
    List<String> command = ForkedJvm.command(exercise.launcher(), Libraries.of(kit, exercise), new GradingJvm.Arguments(
        GradingJvm.Mode.SERVE, work, work, exercise.id(), exercise.title()), options);
    return new ServingJvm(ForkedJvm.start(command, log), log);
  }

  private long limit(Exercise exercise) {
    return debug ? 1800 : exercise.timeoutSeconds();
  }

  /**
   * Starts, now, the JVM that the next grading of {@code exercise} will use, so that grading does not wait for it:
   * for {@code lab watch}, which grades the same exercise again at every save. It is used only by a grading with
   * the same options, and stopped by {@link #close()}.
   */
  public void prepareNext(Exercise exercise, Target target) {
    List<String> options = options(exercise, List.of());
    if (!spares.has(exercise, target, options)) {
      try {
        spares.put(startWaiting(exercise, target, options, workDirs.next(exercise, target), true));
      } catch (IOException e) {
        // a spare is an optimisation: the next grading starts its own JVM
      }
    }
  }

  /**
   * Once per engine, trains javac on {@code exercise} in the background (see {@link CompilerTraining}): for an
   * engine that stays up between checks.
   */
  public void trainCompiler(Exercise exercise, Target target) {
    if (compilerTrained) {
      return;
    }
    compilerTrained = true;
    try {
      GradingSources sources = GradingSources.of(exercise, target, originals);
      CompilerTraining.start(sources.mainDir().resolve("java"), sources.tests().java(), Libraries.of(kit, exercise),
          kit.workDir().resolve("javac-training"));
    } catch (RuntimeException | IOException e) {
      // training only
    }
  }

  /** Stops the grading in progress, if any (its report then says the JVM stopped): for a save during a grading. */
  public void cancelCurrent() {
    ForkedJvm jvm = current;
    if (jvm != null) {
      cancelled = true;
      try {
        jvm.kill();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Where the last grading's output is (what the learner's code printed), at the path README gives:
   * {@code target/lab/<target>/<id>.log}, a link to that grading's own output.log ({@link WorkDirs#latestLog}).
   */
  public Optional<Path> lastLog() {
    return Optional.ofNullable(lastLog);
  }

  /** The stable path of {@code exercise}'s newest output ({@code target/lab/<target>/<id>.log}), once it exists. */
  public Optional<Path> latestLog(Exercise exercise, Target target) {
    Path link = WorkDirs.latestLog(exercise, target, kit);
    return java.nio.file.Files.exists(link) ? Optional.of(link) : Optional.empty();
  }

  /** Stops any spare JVM, and deletes the compiled tests kept. */
  @Override
  public void close() {
    spares.close();
    compiledTests.close();
  }

  private List<String> options(Exercise exercise, List<String> onlyTests) {
    List<String> options = new ArrayList<>(exercise.jvmOptions());
    if (debug) {
      options.add(GradingJvm.debugOption());
    }
    if (!onlyTests.isEmpty()) {
      options.add(GradingJvm.onlyTestsOption(onlyTests));
    }
    return options;
  }

  private WaitingJvm startWaiting(Exercise exercise, Target target, List<String> options, Path work,
      boolean ahead) throws IOException {
    FileTrees.fresh(work);
    Path classes = Files.createDirectories(work.resolve("classes"));
    Path testClasses = Files.createDirectories(work.resolve("test-classes"));
    Path reportFile = work.resolve("report.json");
    Path log = work.resolve("output.log");
    Path java = exercise.launcher();
    List<Path> libraries = Libraries.of(kit, exercise);
    List<String> flags = new ArrayList<>(options);
    if (ahead) {
      flags.add("-D" + GradingJvm.PREWARM + "=true");
    }
    Optional<ClassArchive> archive = ClassArchive.of(kit, exercise);
    archive.ifPresent(made -> flags.addAll(made.options()));
    // The libraries first: a class archive requires its class path to begin the JVM's (ClassArchive), and a
    // learner's class can then never stand in for a library's.
    List<String> command = ForkedJvm.command(java, Libraries.concat(libraries, List.of(testClasses, classes)),
        new GradingJvm.Arguments(GradingJvm.Mode.WAIT_FOR_GO, testClasses, reportFile, exercise.id(),
            exercise.title()), flags);
    if (sandbox != null) {
      // The JDK's home (bin/java's grandparent: a link such as /usr/bin/java is resolved first).
      Path jdk = java.toRealPath().getParent().getParent();
      // The archive may be another kit's, one whose class path this kit borrows (ClassArchive.home).
      List<Path> readable = Libraries.concat(List.of(kit.root(), jdk), libraries);
      if (archive.isPresent()) {
        readable = Libraries.concat(readable, List.of(archive.get().dir()));
      }
      command = sandbox.wrap(command, work, readable);
    }
    return new WaitingJvm(exercise.id(), target.key(), options, classes, testClasses, reportFile, log,
        ForkedJvm.start(command, log));
  }

  private static String testingLine(VerdictStream verdicts, Path job) {
    return verdicts.latest(job).map(r -> "testing " + r.done() + "/" + r.report().tests().size()
        + (r.running() == null ? "" : ": " + r.running())).orElse("starting the tests");
  }
}
