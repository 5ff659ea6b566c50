package io.looplab.cli.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The work folder of each grading: {@code target/lab/<target>/<id>}, and a second one, {@code <id>.next}, taken in
 * turn when a spare JVM is started while the last grading's folder (its output.log) must stay as it is; and
 * {@code <id>.log} beside them, which always leads to the newest grading's output.
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

  /**
   * The one path that always holds the newest grading's output of {@code exercise}, whichever of its two folders that
   * grading ran in: {@code target/lab/<target>/<id>.log}, what README tells a learner to open.
   */
  static Path latestLog(Exercise exercise, Target target, Kit kit) {
    return kit.workDir().resolve(target.key()).resolve(exercise.id() + ".log");
  }

  /**
   * Points {@link #latestLog} at {@code log}: a relative symbolic link, or where links cannot be made, a copy. A
   * failure leaves the grading as it is: the check's footer still names the folder's own log.
   */
  static void pointToLatestLog(Exercise exercise, Target target, Kit kit, Path log) {
    Path link = latestLog(exercise, target, kit);
    try {
      Files.createDirectories(link.getParent());
      Files.deleteIfExists(link);
      if (!Files.exists(log)) {
        return;
      }
      try {
        Files.createSymbolicLink(link, link.getParent().relativize(log));
      } catch (UnsupportedOperationException | IOException noLinks) {
        Files.copy(log, link);
      }
    } catch (IOException e) {
      // the footer names the real file; the link is a convenience
    }
  }
}
