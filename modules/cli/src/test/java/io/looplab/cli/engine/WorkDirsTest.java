package io.looplab.cli.engine;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Gradings take two folders in turn; the path README gives always leads to the newest one's output. */
class WorkDirsTest {

  @TempDir
  Path dir;

  @Test
  @DisplayName("target/lab/exercises/<id>.log follows each grading, in whichever of the two folders it ran")
  void theDocumentedLogIsTheNewest() throws IOException {
    Files.createDirectories(dir.resolve("exercises/02-blocking-calls"));
    Files.writeString(dir.resolve("exercises/02-blocking-calls/exercise.json"), "{}");
    Kit kit = Kit.at(dir);
    Exercise exercise = kit.find("02");
    Target target = Target.exercises(kit);
    WorkDirs dirs = new WorkDirs(kit);
    Path readme = dir.resolve("target/lab/exercises/02-blocking-calls.log");
    assertEquals(readme, WorkDirs.latestLog(exercise, target, kit), "the path README gives");

    for (String printed : new String[] {"first check", "second check", "third check"}) {
      Path folder = Files.createDirectories(dirs.next(exercise, target));
      Path log = Files.writeString(folder.resolve("output.log"), printed + " printed this");
      WorkDirs.pointToLatestLog(exercise, target, kit, log);
      assertEquals(printed + " printed this", Files.readString(readme), "after the " + printed + " in "
          + dir.relativize(folder));
    }
    assertTrue(Files.isSymbolicLink(readme) && !Files.readSymbolicLink(readme).isAbsolute(),
        "a relative link, so that the kit can move: " + readme);

    Path gone = dir.resolve("target/lab/exercises/02-blocking-calls/none.log");
    WorkDirs.pointToLatestLog(exercise, target, kit, gone);
    assertFalse(Files.exists(readme, java.nio.file.LinkOption.NOFOLLOW_LINKS), "a grading that wrote no log "
        + "leaves no link to an older one");
  }
}
