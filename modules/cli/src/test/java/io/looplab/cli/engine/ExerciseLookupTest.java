package io.looplab.cli.engine;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A path that a shell's tab completion gives names the exercise whose folder holds it, from wherever it is typed. */
class ExerciseLookupTest {

  @TempDir
  static Path dir;
  static Path kit;
  static List<Exercise> exercises;

  @BeforeAll
  static void makeKit() throws IOException {
    kit = dir.resolve("kit");
    for (String id : List.of("01-event-loop-threads", "02-blocking-calls", "03-execute-blocking")) {
      Path exercise = Files.createDirectories(kit.resolve("exercises").resolve(id).resolve("src/main/java"));
      Files.writeString(kit.resolve("exercises").resolve(id).resolve("exercise.json"), "{\"title\": \"" + id + "\"}");
      Files.writeString(exercise.resolve("Stub.java"), "class Stub {}");
      Files.createDirectories(kit.resolve("solutions").resolve(id).resolve("src/main/java"));
    }
    Files.createDirectories(dir.resolve("elsewhere/02-blocking-calls"));
    exercises = Kit.at(kit).exercises();
  }

  @ParameterizedTest(name = "''{0}'' typed in {1}/ means {2}")
  @CsvSource(delimiter = '|', value = {
      "exercises/02-blocking-calls                   | .                                 | 02-blocking-calls",
      "exercises/02-blocking-calls/                  | .                                 | 02-blocking-calls",
      "./exercises/02-blocking-calls/                | .                                 | 02-blocking-calls",
      "exercises/03-execute-blocking/src/main/java/Stub.java | .                        | 03-execute-blocking",
      "exercises/01-event-loop-threads/no/such/File.java | .                             | 01-event-loop-threads",
      "solutions/02-blocking-calls                   | .                                 | 02-blocking-calls",
      ".                                             | exercises/03-execute-blocking     | 03-execute-blocking",
      "../02-blocking-calls                          | exercises/03-execute-blocking     | 02-blocking-calls",
      "..                                            | exercises/01-event-loop-threads/src | 01-event-loop-threads"})
  void aPathMeansTheExerciseThatHoldsIt(String typed, String where, String id) {
    assertEquals(id, ExerciseLookup.find(exercises, typed, kit.resolve(where)).id());
  }

  @Test
  @DisplayName("an absolute path means its exercise, whatever the working directory")
  void anAbsolutePathNeedsNoWorkingDirectory() {
    String absolute = kit.resolve("exercises/02-blocking-calls").toString() + "/";
    assertEquals("02-blocking-calls", ExerciseLookup.find(exercises, absolute, dir.resolve("elsewhere")).id());
  }

  @Test
  @DisplayName("a folder named like an exercise outside the kit is refused in one line that names the kit's own")
  void aFolderOutsideTheKitIsNotTakenForTheKitsOwn() {
    UsageError refused = assertThrows(UsageError.class, () -> ExerciseLookup.find(exercises, "02-blocking-calls/",
        dir.resolve("elsewhere")));
    assertTrue(refused.getMessage().contains("is outside this kit")
        && refused.getMessage().contains("whose own 02-blocking-calls is exercises/02-blocking-calls (or just 02)")
        && !refused.getMessage().contains("\n"), refused.getMessage());
  }

  @Test
  @DisplayName("a path inside the kit but in no exercise's folder says what to give instead")
  void aPathInNoExerciseIsRefused() {
    UsageError refused = assertThrows(UsageError.class, () -> ExerciseLookup.find(exercises, "exercises/", kit));
    assertEquals("'exercises/' is not an exercise's folder or inside one: give a folder such as "
        + "exercises/01-event-loop-threads, or its id (./lab list shows them)", refused.getMessage());
  }

  @Test
  @DisplayName("ids, numbers and prefixes still find their exercise")
  void idsAreNotPaths() {
    assertEquals("02-blocking-calls", ExerciseLookup.find(exercises, "2", dir).id());
    assertEquals("03-execute-blocking", ExerciseLookup.find(exercises, "execute", dir).id());
  }
}
