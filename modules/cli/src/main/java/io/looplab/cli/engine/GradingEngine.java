package io.looplab.cli.engine;

import io.looplab.grader.internal.runner.GradingJvm;
import io.looplab.grader.internal.scoring.InFlightReport;
import io.looplab.grader.internal.scoring.VerdictFormat;
import io.looplab.grader.internal.scoring.VerdictStream;
import io.looplab.report.ExerciseResult;
import io.looplab.report.ExerciseStatus;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * Grades one exercise of one target: compile the target's code, compile the kit's pristine tests against it, run
 * them in a forked JVM under the exercise's time limit, and turn whatever happened into an {@link ExerciseResult}.
 * A compile error, a crash or a hang is a result for that exercise, never an error of the grader.
 */
public final class GradingEngine implements AutoCloseable {

  /** Told what the grader is doing, for a progress line. */
  public interface Progress {
    void update(Exercise exercise, String doing);
  }

  private final Kit kit;
  private final SourceCompiler compiler = new SourceCompiler();
  /** One lock per plan folder, for every engine in this JVM. */
  private static final Map<Path, Object> PLAN_LOCKS = new ConcurrentHashMap<>();
  private final Originals originals;
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
    }
  }

  private ExerciseResult gradeIn(WaitingJvm waiting, Exercise exercise, Target target, Progress progress)
      throws IOException, InterruptedException {
    ForkedJvm jvm = waiting.jvm();
    Sources sources = sources(exercise, target);
    try {
      Optional<ExerciseResult> notRun = compile(exercise, sources, waiting.classes(), waiting.testClasses(), progress);
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
    return conclude(exercise, sources, new Verdict(jvm.verdicts(), waiting.reportFile(), List.of()), waiting.log(),
        outcome, limit);
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
        Path work = freshDir(workDirs.next(exercise, job.target()));
        Path classes = Files.createDirectories(work.resolve("classes"));
        Path testClasses = Files.createDirectories(work.resolve("test-classes"));
        Sources sources = sources(exercise, job.target());
        Optional<ExerciseResult> notRun = compile(exercise, sources, classes, testClasses, (e, d) -> { });
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
        ExerciseResult report = conclude(exercise, sources, new Verdict(jvm.verdicts(), line.reportFile(),
            job.onlyTests()), jvm.log(), outcome, limit);
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
    List<String> command = ForkedJvm.command(java(exercise), libraries(exercise), new GradingJvm.Arguments(
        GradingJvm.Mode.SERVE, work, work, exercise.id(), exercise.title()), options(exercise, List.of()));
    return new ServingJvm(ForkedJvm.start(command, log), log);
  }

  /**
   * Where a grading's code and tests come from: the target's own code, or the kit's original stub, and the tests;
   * {@code ignoredTests}: tests of a submission's own that differ from the kit's and are not used (else null).
   */
  private record Sources(Path mainDir, Originals.Copy stub, Originals.Copy tests, Path ignoredTests) {
  }

  private Sources sources(Exercise exercise, Target target) {
    Optional<Path> given = target.mainDir(exercise);
    Originals.Copy stub = given.isPresent() ? null : originals.of(exercise, Originals.Part.STUB);
    Originals.Copy tests = originals.of(exercise, Originals.Part.TESTS);
    Path ownTests = given.map(main -> main.resolveSibling("test")).orElse(null);
    boolean ignored = ownTests != null && !target.isLearnersOwnCopy() && holdsFiles(ownTests)
        && !SourceFingerprint.of(ownTests).equals(SourceFingerprint.of(tests.dir()));
    return new Sources(given.isPresent() ? given.get() : stub.dir(), stub, tests, ignored ? ownTests : null);
  }

  private static boolean holdsFiles(Path dir) {
    if (!Files.isDirectory(dir)) {
      return false;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      return walk.anyMatch(Files::isRegularFile);
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Checks and compiles the code, then the kit's tests against it; the report of why the tests cannot run, or empty
   * when they can.
   */
  private Optional<ExerciseResult> compile(Exercise exercise, Sources sources, Path classes, Path testClasses,
      Progress progress) throws IOException {
    List<Path> libraries = libraries(exercise);
    Path mainDir = sources.mainDir();
    Optional<String> refused = SubmissionCheck.problemWith(mainDir);
    if (refused.isPresent()) {
      return Optional.of(compileError(exercise, "Refused before compiling: " + refused.get() + "."));
    }
    progress.update(exercise, "compiling");
    SourceCompiler.Result compiledMain = compiler.compile(mainDir.resolve("java"), mainDir.resolve("resources"),
        classes, libraries);
    if (!compiledMain.ok()) {
      return Optional.of(compileError(exercise, "Your code does not compile: " + compiledMain.firstError()
          + more(compiledMain)));
    }
    // The classes run beside the tests and the scorer: code that reaches for them is refused before it can run.
    Optional<String> refusedClass = SubmissionCheck.problemWithCompiled(classes)
        .or(() -> ForbiddenApiCheck.problemWith(classes, libraries));
    if (refusedClass.isPresent()) {
      return Optional.of(compileError(exercise, "Refused after compiling: " + refusedClass.get() + "."));
    }
    String testsKey = CompiledTests.key(compiledMain.api(), sources.tests().dir(), libraries);
    if (compiledTests.copyInto(exercise, testsKey, testClasses)) {
      return Optional.empty();
    }
    SourceCompiler.Result tests = compiler.compile(sources.tests().java(), sources.tests().resources(),
        testClasses, concat(List.of(classes), libraries));
    if (!tests.ok()) {
      return Optional.of(compileError(exercise, "The graded tests do not compile against your code: "
          + tests.firstError() + more(tests) + ". Keep the stub's public classes and method signatures."));
    }
    compiledTests.keep(exercise, testsKey, testClasses);
    return Optional.empty();
  }

  private long limit(Exercise exercise) {
    return debug ? 1800 : exercise.timeoutSeconds();
  }

  /**
   * Where a grading's verdict is: the signed records of the JVM that ran it, under the job's name (the report file it
   * was given, which is never read), and the test methods it was asked to run (all when empty).
   */
  private record Verdict(VerdictStream stream, Path job, List<String> onlyTests) {
  }

  /**
   * The report, from what the grading JVM said (checked against the exercise's plan) and how it ended, with every
   * note the grading calls for.
   */
  private ExerciseResult conclude(Exercise exercise, Sources sources, Verdict verdict, Path log,
      ForkedJvm.Outcome outcome, long limit) {
    ExerciseResult plan = plan(exercise);
    Optional<InFlightReport> written = verdict.stream().latest(verdict.job());
    Optional<String> unbelievable = verdict.stream().problem().map(p -> "the grading JVM's output held " + p)
        .or(() -> written.flatMap(w -> PlanMatch.mismatch(plan, w.report(), verdict.onlyTests())))
        .or(() -> written.isEmpty() && !outcome.timedOut() && outcome.exitCode() == 0
            ? Optional.of("the grading JVM ended normally without handing over a verdict") : Optional.empty());
    if (unbelievable.isPresent()) {
      return notGraded(PlanMatch.only(plan, verdict.onlyTests()), unbelievable.get());
    }
    ExerciseResult report = written.map(InFlightReport::report).orElse(plan);
    String running = written.map(InFlightReport::running).orElse(null);
    boolean endedEarly = written.isEmpty() || !written.get().finished() || outcome.exitCode() != 0;
    Optional<VerdictStream.Where> where = verdict.stream().where(verdict.job());
    if (outcome.timedOut() && tooBusy(outcome, limit) && !where.map(VerdictStream.Where::inLearnersCode).orElse(false)) {
      // Stopped outside the learner's code, after waiting for a CPU for much of its time: that is the machine's.
      return notGraded(PlanMatch.only(plan, verdict.onlyTests()), "the machine was too busy: the grading JVM's "
          + "threads had waited " + outcome.cpuWaitMillis() / 1000 + " s for a CPU when its time limit of " + limit
          + " s struck, and its tests were not in your code" + where.map(w -> w.text().isEmpty() ? "" : " ("
          + w.text() + ")").orElse(""));
    }
    if (outcome.timedOut()) {
      report = report.stoppedAtTimeLimit(limit, running, where.map(VerdictStream.Where::text)
          .filter(t -> !t.isEmpty()).orElse(null));
    } else if (endedEarly) {
      report = report.crashed(outcome.exitCode(), outcome.droppedBytes(), log, running);
    }
    if (outcome.droppedBytes() > 0 && report.status() != ExerciseStatus.CRASHED) {
      report = report.withNote("The code printed more than the log keeps: " + outcome.droppedBytes()
          + " bytes of output were dropped (" + log + " has the first " + ForkedJvm.MAX_LOG_BYTES / 1024 + " KiB).");
    }
    // Only a JVM that ended early can have run out of memory: it exits on OutOfMemoryError (looplab.argLine).
    Optional<String> outOfMemory = endedEarly || outcome.timedOut()
        ? firstLineWith(log, "java.lang.OutOfMemoryError") : Optional.empty();
    if (outOfMemory.isPresent()) {
      report = report.withNote("The code ran out of memory: " + outOfMemory.get().strip() + " (in " + log + "). "
          + "Something keeps growing: a list, a queue, a map that is never emptied.");
    }
    String note = notes(sources.stub(), sources.tests());
    if (note != null) {
      report = report.withNote(note);
    }
    if (sources.ignoredTests() != null) {
      // Only src/main is ever taken: tests that came with the code would grade it by its own rules.
      report = report.withNote("The submission's own tests (" + sources.ignoredTests() + ") were not used: every "
          + "grade comes from the kit's original tests.");
    }
    if (exercise.minimumJava() > JavaRuntimes.current()) {
      report = report.withNote("Graded on " + java(exercise) + ": this exercise needs JDK " + exercise.minimumJava()
          + " or newer, and the kit runs on JDK " + JavaRuntimes.current() + ".");
    }
    return report;
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
      Sources sources = sources(exercise, target);
      CompilerTraining.start(sources.mainDir().resolve("java"), sources.tests().java(), libraries(exercise),
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

  /** Where the last grading's JVM wrote its output (what the learner's code printed). */
  public Optional<Path> lastLog() {
    return Optional.ofNullable(lastLog);
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
    freshDir(work);
    Path classes = Files.createDirectories(work.resolve("classes"));
    Path testClasses = Files.createDirectories(work.resolve("test-classes"));
    Path reportFile = work.resolve("report.json");
    Path log = work.resolve("output.log");
    Path java = java(exercise);
    List<Path> libraries = libraries(exercise);
    List<String> command = ForkedJvm.command(java, concat(List.of(testClasses, classes), libraries),
        new GradingJvm.Arguments(GradingJvm.Mode.WAIT_FOR_GO, testClasses, reportFile, exercise.id(),
            exercise.title()), ahead ? concat(options, List.of("-D" + GradingJvm.PREWARM + "=true")) : options);
    if (sandbox != null) {
      // The JDK's home (bin/java's grandparent: a link such as /usr/bin/java is resolved first).
      Path jdk = java.toRealPath().getParent().getParent();
      command = sandbox.wrap(command, work, concat(List.of(kit.root(), jdk), libraries));
    }
    return new WaitingJvm(exercise.id(), target.key(), options, classes, testClasses, reportFile, log,
        ForkedJvm.start(command, log));
  }

  /**
   * What the report must say about where the graded code and tests came from: plainly, whenever the kit's working
   * copy was not used as it is.
   */
  private static String notes(Originals.Copy stub, Originals.Copy tests) {
    List<String> notes = new ArrayList<>();
    if (stub != null) {
      notes.add("This exercise is not in the submission, so the kit's original stub was graded"
          + (stub.changedInWorkingCopy() && stub.recovered() ? " (not the kit's edited copy of it)" : "")
          + (stub.recovered() ? "." : ": its original could not be recovered (" + stub.whyNot()
          + "), so the kit's working copy was graded, which differs from it: " + Originals.describe(stub.changed()) + "."));
    }
    if (tests.changedInWorkingCopy()) {
      notes.add(tests.recovered()
          ? "The kit's copy of the graded tests differs from the original (" + Originals.describe(tests.changed())
              + "), so the original tests were used."
          : "The kit's copy of the graded tests differs from the original (" + Originals.describe(tests.changed())
              + ") and the original could not be recovered (" + tests.whyNot() + "): this grade used the changed tests.");
    }
    return notes.isEmpty() ? null : String.join(" ", notes);
  }

  /**
   * Whether a JVM stopped at the time limit waited for a CPU for more than a quarter of that limit: on a quiet machine
   * it waits milliseconds, and a hang waits for nothing, so that much waiting means the machine, not the code, ran out
   * of time.
   */
  static boolean tooBusy(ForkedJvm.Outcome outcome, long limitSeconds) {
    return outcome.cpuWaitMillis() > limitSeconds * 1000 / 4;
  }

  /** The first line of {@code log} that contains {@code text}: the log is capped, so this reads at most 1 MiB. */
  private static Optional<String> firstLineWith(Path log, String text) {
    try (Stream<String> lines = Files.lines(log, java.nio.charset.StandardCharsets.ISO_8859_1)) {
      return lines.filter(l -> l.contains(text)).findFirst();
    } catch (IOException | java.io.UncheckedIOException e) {
      return Optional.empty();
    }
  }

  private static String more(SourceCompiler.Result r) {
    return r.errorCount() > 1 ? " (and " + (r.errorCount() - 1) + " more error" + (r.errorCount() > 2 ? "s" : "") + ")" : "";
  }

  private ExerciseResult compileError(Exercise exercise, String message) {
    return plan(exercise).failedToCompile(message);
  }

  /**
   * The exercise's tests and points without running them, so that a report keeps the same max whatever happened.
   * The original tests are compiled against the original stub, which always compiles (the self-test proves it), and
   * only discovered: a learner's handout needs no solutions/ folder.
   */
  ExerciseResult plan(Exercise exercise) {
    Path dir = kit.workDir().resolve("plan").resolve(exercise.id());
    // Gradings of one exercise side by side (--class, the self-test) all need its plan: one lists it, the others
    // wait for it. Seen without this: a refused submission's report with max 0, read from a plan still being written.
    synchronized (PLAN_LOCKS.computeIfAbsent(dir.toAbsolutePath().normalize(), d -> new Object())) {
      return planIn(exercise, dir);
    }
  }

  private ExerciseResult planIn(Exercise exercise, Path dir) {
    try {
      Path reportFile = dir.resolve("plan.json");
      Originals.Copy tests = originals.of(exercise, Originals.Part.TESTS);
      Originals.Copy stub = originals.of(exercise, Originals.Part.STUB);
      Optional<InFlightReport> cached = Files.exists(reportFile) && Files.getLastModifiedTime(reportFile).toMillis()
          > Math.max(newest(tests.dir()), newest(stub.dir())) ? InFlightReport.read(reportFile) : Optional.empty();
      if (cached.isPresent() && cached.get().finished()) {
        return cached.get().report();
      }
      freshDir(dir);
      Path listing = dir.resolve("plan-being-listed.json");
      List<Path> libraries = libraries(exercise);
      Path classes = dir.resolve("classes");
      Path testClasses = dir.resolve("test-classes");
      // Without git history an edited stub is all there is; the reference solution, where the kit has one, then
      // stands in, since the plan needs only the tests' names and points.
      boolean compiled = compiler.compile(stub.java(), stub.resources(), classes, libraries).ok();
      if (!compiled && Files.isDirectory(kit.solutionSources(exercise))) {
        compiled = compiler.compile(kit.solutionSources(exercise), null, freshDir(classes), libraries).ok();
      }
      if (!compiled || !compiler.compile(tests.java(), tests.resources(), testClasses,
          concat(List.of(classes), libraries)).ok()) {
        throw new IllegalStateException("the kit's own stub or tests for " + exercise.id() + " do not compile");
      }
      ForkedJvm.run(ForkedJvm.command(java(exercise), concat(List.of(testClasses, classes), libraries), new GradingJvm.Arguments(
          GradingJvm.Mode.PLAN_ONLY, testClasses, listing, exercise.id(), exercise.title()), List.of()),
          dir.resolve("output.log"), 60, left -> { });
      Optional<InFlightReport> listed = InFlightReport.read(listing).filter(InFlightReport::finished);
      if (listed.isEmpty()) {
        throw new IllegalStateException("could not list the tests of " + exercise.id() + "; see "
            + dir.resolve("output.log"));
      }
      // Into place whole: another kit process reading the cache sees the whole plan or none.
      Files.move(listing, reportFile, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      return listed.get().report();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * A report in which every test of the plan is not graded, for {@code why}: the kit cannot tell what the grader
   * said, so it gives neither points nor lost points (and grades the exercise again).
   */
  private static ExerciseResult notGraded(ExerciseResult plan, String why) {
    return plan.notGradedBecause(why + ". The kit cannot tell what the grader said, so this grading counts "
        + "neither points nor lost points. (Graded code must never print a line that starts with "
        + VerdictFormat.MARK + ".)");
  }

  private static String testingLine(VerdictStream verdicts, Path job) {
    return verdicts.latest(job).map(r -> "testing " + r.done() + "/" + r.report().tests().size()
        + (r.running() == null ? "" : ": " + r.running())).orElse("starting the tests");
  }

  /** The java that runs its JVMs; a caller checks {@link Exercise#runsHere()} first. */
  private static Path java(Exercise exercise) {
    return exercise.java().orElseThrow(() -> new UsageError(JavaRuntimes.missing(exercise)));
  }

  private List<Path> libraries(Exercise exercise) throws IOException {
    Path file = exercise.classpathFile();
    if (!Files.exists(file)) {
      throw new UsageError("the kit is not built yet (" + kit.root().relativize(file) + " is missing): run ./lab "
          + "again, it builds what it needs, or run mvn -B verify once");
    }
    List<Path> paths = new ArrayList<>();
    for (String entry : Files.readString(file).trim().split(java.io.File.pathSeparator)) {
      if (!entry.isBlank()) {
        paths.add(Path.of(entry));
      }
    }
    return paths;
  }

  private static long newest(Path dir) throws IOException {
    try (Stream<Path> walk = Files.walk(dir)) {
      return walk.mapToLong(p -> p.toFile().lastModified()).max().orElse(0);
    }
  }

  private static Path freshDir(Path dir) throws IOException {
    FileTrees.delete(dir);
    return Files.createDirectories(dir);
  }

  private static <T> List<T> concat(List<T> first, List<T> second) {
    List<T> all = new ArrayList<>(first);
    all.addAll(second);
    return all;
  }
}
