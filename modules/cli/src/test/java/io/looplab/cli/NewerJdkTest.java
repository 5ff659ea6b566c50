package io.looplab.cli;

import io.looplab.cli.engine.JavaRuntimes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An exercise that needs a newer Java than any on this machine (as 14-virtual-threads needs JDK 21 on a JDK 17
 * machine without a newer one): the commands say so in one line, and every other exercise is graded as usual.
 */
class NewerJdkTest {

  private static final String NEEDS = "needs JDK 99 or newer, and this is JDK " + JavaRuntimes.current();

  @TempDir
  static Path dir;
  static TinyKit kit;

  @BeforeAll
  static void makeKit() throws IOException {
    kit = TinyKit.create(dir);
    Files.writeString(kit.root().resolve("exercises/01-first-steps/exercise.json"),
        "{\"id\": \"01-first-steps\", \"title\": \"From the future\", \"minimumJava\": 99}");
  }

  @Test
  @DisplayName("the JDK that runs the kit serves an exercise that needs no newer one")
  void thisJdkServesItsOwnVersion() {
    Path java = JavaRuntimes.javaFor(JavaRuntimes.current()).orElseThrow();
    assertTrue(java.startsWith(Path.of(System.getProperty("java.home"))), java.toString());
    assertFalse(JavaRuntimes.javaFor(99).isPresent(), "a JDK 99 was found: " + JavaRuntimes.javaFor(99));
  }

  @Test
  @DisplayName("lab list says on the exercise's row which JDK it needs, and does not send the learner to it")
  void listSaysWhichJdk() {
    TinyKit.Run run = kit.lab("", "list");
    assertEquals(0, run.status(), run.err());
    String row = run.out().lines().filter(l -> l.contains("01-first-steps")).findFirst().orElseThrow();
    assertTrue(row.contains("needs JDK 99 or newer (this is JDK " + JavaRuntimes.current() + ")"), row);
    assertTrue(run.out().contains("Next: ./lab check 02-blocking-calls"), run.out());
  }

  @Test
  @DisplayName("lab check on it prints one line saying which JDK it needs, instead of failing")
  void checkSaysItInOneLine() {
    TinyKit.Run run = kit.lab("", "check", "01");
    assertEquals(0, run.status(), run.err());
    assertEquals(1, run.out().strip().lines().count(), run.out());
    assertTrue(run.out().contains("01-first-steps " + NEEDS), run.out());
  }

  @Test
  @DisplayName("lab grade leaves it out with one line, and grades the others")
  void gradeLeavesItOut() {
    TinyKit.Run run = kit.lab("", "grade", "--only", "01");
    assertEquals(0, run.status(), run.err());
    assertTrue(run.out().contains("Not graded: 01-first-steps " + NEEDS), run.out());
    assertTrue(run.out().contains("0 exercises"), run.out());
  }
}
