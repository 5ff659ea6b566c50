package io.looplab.cli.engine;

import io.looplab.report.ExerciseResult;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The build step of a grading: checks the code, compiles it, checks the compiled classes for APIs that reach for the
 * grader, then compiles the kit's tests against them (or copies the tests compiled last time against the same API).
 * What cannot run is a report of its own: a compile error or a refusal costs that exercise alone.
 */
final class SubmissionBuild {

  private final Kit kit;
  private final SourceCompiler compiler;
  private final CompiledTests compiledTests;
  private final ExercisePlans plans;

  SubmissionBuild(Kit kit, SourceCompiler compiler, CompiledTests compiledTests, ExercisePlans plans) {
    this.kit = kit;
    this.compiler = compiler;
    this.compiledTests = compiledTests;
    this.plans = plans;
  }

  /** Builds into {@code classes} and {@code testClasses}; the report of why the tests cannot run, or empty. */
  Optional<ExerciseResult> build(Exercise exercise, GradingSources sources, Path classes, Path testClasses,
      GradingEngine.Progress progress) throws IOException {
    List<Path> libraries = Libraries.of(kit, exercise);
    Path mainDir = sources.mainDir();
    Optional<String> refused = SubmissionCheck.problemWith(mainDir);
    if (refused.isPresent()) {
      return Optional.of(compileError(exercise, "Refused before compiling: " + refused.get() + "."));
    }
    progress.update(exercise, "compiling");
    SourceCompiler.Result compiledMain = compiler.compile(mainDir.resolve("java"), mainDir.resolve("resources"),
        classes, libraries);
    if (!compiledMain.ok()) {
      return Optional.of(compileError(exercise, "Your code does not compile: "
          + compiledMain.errorsAsJavacGivesThem()));
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
        testClasses, Libraries.concat(List.of(classes), libraries));
    if (!tests.ok()) {
      return Optional.of(compileError(exercise, "The graded tests do not compile against your code (keep the "
          + "stub's public classes and method signatures): " + tests.errorsAsJavacGivesThem()));
    }
    compiledTests.keep(exercise, testsKey, testClasses);
    return Optional.empty();
  }

  private ExerciseResult compileError(Exercise exercise, String message) {
    return plans.of(exercise).failedToCompile(message);
  }
}
