package io.looplab.cli.formats;

import io.looplab.report.TestResult;

import java.util.Optional;

/** The source code of a graded test method, as the graded test file has it, when it can be found. */
@FunctionalInterface
public interface TestSource {

  Optional<String> of(String exerciseId, TestResult test);
}
