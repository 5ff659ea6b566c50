package io.looplab.cli.engine;

import io.looplab.grader.internal.runner.GradingJvm;
import io.looplab.grader.internal.scoring.InFlightReport;
import io.looplab.report.ExerciseResult;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * Each exercise's plan: its tests and points, listed without running them, so that a report keeps the same max
 * whatever happened and a verdict can be checked against it. The original tests are compiled against the original
 * stub, which always compiles (the self-test proves it), and only discovered: a learner's handout needs no
 * solutions/ folder. Kept in the kit's work folder until the tests or the stub change.
 */
final class ExercisePlans {

  /** One lock per plan folder, for every engine in this JVM. */
  private static final Map<Path, Object> LOCKS = new ConcurrentHashMap<>();

  private final Kit kit;
  private final Originals originals;
  private final SourceCompiler compiler;

  ExercisePlans(Kit kit, Originals originals, SourceCompiler compiler) {
    this.kit = kit;
    this.originals = originals;
    this.compiler = compiler;
  }

  ExerciseResult of(Exercise exercise) {
    Path dir = kit.workDir().resolve("plan").resolve(exercise.id());
    // Gradings of one exercise side by side (--class, the self-test) all need its plan: one lists it, the others
    // wait for it. Seen without this: a refused submission's report with max 0, read from a plan still being written.
    synchronized (LOCKS.computeIfAbsent(dir.toAbsolutePath().normalize(), d -> new Object())) {
      return listedIn(exercise, dir);
    }
  }

  private ExerciseResult listedIn(Exercise exercise, Path dir) {
    try {
      Path reportFile = dir.resolve("plan.json");
      Originals.Copy tests = originals.of(exercise, Originals.Part.TESTS);
      Originals.Copy stub = originals.of(exercise, Originals.Part.STUB);
      Optional<InFlightReport> cached = Files.exists(reportFile) && Files.getLastModifiedTime(reportFile).toMillis()
          > Math.max(newest(tests.dir()), newest(stub.dir())) ? InFlightReport.read(reportFile) : Optional.empty();
      if (cached.isPresent() && cached.get().finished()) {
        return cached.get().report();
      }
      FileTrees.fresh(dir);
      Path listing = dir.resolve("plan-being-listed.json");
      List<Path> libraries = Libraries.of(kit, exercise);
      Path classes = dir.resolve("classes");
      Path testClasses = dir.resolve("test-classes");
      // Without git history an edited stub is all there is; the reference solution, where the kit has one, then
      // stands in, since the plan needs only the tests' names and points.
      boolean compiled = compiler.compile(stub.java(), stub.resources(), classes, libraries).ok();
      if (!compiled && Files.isDirectory(kit.solutionSources(exercise))) {
        compiled = compiler.compile(kit.solutionSources(exercise), null, FileTrees.fresh(classes), libraries).ok();
      }
      if (!compiled || !compiler.compile(tests.java(), tests.resources(), testClasses,
          Libraries.concat(List.of(classes), libraries)).ok()) {
        throw new IllegalStateException("the kit's own stub or tests for " + exercise.id() + " do not compile");
      }
      ForkedJvm.run(ForkedJvm.command(exercise.launcher(), Libraries.concat(List.of(testClasses, classes), libraries),
          new GradingJvm.Arguments(GradingJvm.Mode.PLAN_ONLY, testClasses, listing, exercise.id(), exercise.title()),
          List.of()), dir.resolve("output.log"), 60, left -> { });
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

  private static long newest(Path dir) throws IOException {
    try (Stream<Path> walk = Files.walk(dir)) {
      return walk.mapToLong(p -> p.toFile().lastModified()).max().orElse(0);
    }
  }
}
