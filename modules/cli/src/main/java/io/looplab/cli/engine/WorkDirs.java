package io.looplab.cli.engine;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The work folder of each grading: {@code target/lab/<target>/<id>}, and a second one, {@code <id>.next}, taken in
 * turn when a spare JVM is started while the last grading's folder (its output.log) must stay as it is.
 */
final class WorkDirs {

  private final Kit kit;
  private final Map<String, Boolean> lastWasNext = new HashMap<>();

  WorkDirs(Kit kit) {
    this.kit = kit;
  }

  synchronized Path next(Exercise exercise, Target target) {
    String key = target.key() + "/" + exercise.id();
    boolean useNext = !lastWasNext.getOrDefault(key, true);
    lastWasNext.put(key, useNext);
    Path dir = kit.workDir().resolve(target.key());
    return dir.resolve(useNext ? exercise.id() + ".next" : exercise.id());
  }
}
