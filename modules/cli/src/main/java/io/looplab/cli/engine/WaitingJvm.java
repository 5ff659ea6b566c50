package io.looplab.cli.engine;

import java.nio.file.Path;
import java.util.List;

/**
 * A grading JVM that is up and waiting for its tests, with the work folder it was started for: the compiled code
 * goes into {@code classes} and {@code testClasses}, and the JVM writes {@code reportFile} and {@code log}.
 */
record WaitingJvm(String exerciseId, String targetKey, List<String> options, Path classes, Path testClasses,
                  Path reportFile, Path log, ForkedJvm jvm) {

  boolean fits(Exercise exercise, Target target, List<String> wanted) {
    return exerciseId.equals(exercise.id()) && targetKey.equals(target.key()) && options.equals(wanted);
  }
}
