package io.looplab.cli.engine;

import io.looplab.report.ExerciseResult;
import io.looplab.report.TestResult;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Help.Ansi;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Colour on a terminal, none when NO_COLOR is set or output is not a terminal, and a forced choice wins. */
class ConsoleTest {

  @Test
  @DisplayName("colour only on a terminal, never with a non-empty NO_COLOR, unless -Dpicocli.ansi forces it")
  void whenColour() {
    assertEquals(Ansi.ON, Console.colours(null, null, true), "a terminal");
    assertEquals(Ansi.OFF, Console.colours(null, null, false), "a pipe or a file");
    assertEquals(Ansi.OFF, Console.colours(null, "1", true), "NO_COLOR=1 on a terminal");
    assertEquals(Ansi.ON, Console.colours(null, "", true), "an empty NO_COLOR counts as unset (no-color.org)");
    assertEquals(Ansi.ON, Console.colours("true", "1", false), "forced on");
    assertEquals(Ansi.OFF, Console.colours("false", null, true), "forced off");
  }

  @Test
  @DisplayName("with colour, ✓ is green, ✗ red and a partial score yellow; without, the plain characters")
  void marksAndScores() {
    Console colour = new Console(Ansi.ON);
    assertTrue(colour.mark(true).contains("\u001B[32m") && colour.mark(true).contains("✓"), colour.mark(true));
    assertTrue(colour.mark(false).contains("\u001B[31m") && colour.mark(false).contains("✗"), colour.mark(false));
    assertTrue(colour.score(3, 5).contains("\u001B[33m3/5"), colour.score(3, 5));
    assertTrue(colour.bar(0.5, 4).contains("\u001B[32m##"), colour.bar(0.5, 4));
    Console plain = new Console(Ansi.OFF);
    assertEquals("✓", plain.mark(true));
    assertEquals("3/5", plain.score(3, 5));
    assertEquals("[##--]", plain.bar(0.5, 4));
  }

  @Test
  @DisplayName("code that does not compile: the compiler's message, then one line that no test ran, not a ✗ per test")
  void compileErrorIsOneLine() {
    ExerciseResult r = ExerciseResult.of("03-execute-blocking", "Third", List.of(
        TestResult.pending("[engine:junit-jupiter]/[class:x.HashTest]/[method:hashes()]", "hashes", 4),
        TestResult.pending("[engine:junit-jupiter]/[class:x.HashTest]/[method:looks()]", "looks up", 3)))
        .failedToCompile("Your code does not compile: Task.java:3: error: ';' expected");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    new Console(out).testLines(r, false);
    String printed = out.toString(StandardCharsets.UTF_8);
    assertTrue(printed.contains("Task.java:3: error: ';' expected"), printed);
    assertTrue(printed.contains("none of its 2 tests ran  (0/7)"), printed);
    assertFalse(printed.contains("✗"), printed);
  }

  @Test
  @DisplayName("the grade's last line gives the share of points as a percentage, which README's GitLab pattern reads")
  void totalLineFeedsGitLabsCoveragePattern() throws java.io.IOException {
    Console plain = new Console(Ansi.OFF);
    assertEquals("Total 24/429 [##----------------------------] 5.6%", plain.totalLine(24, 429));
    java.nio.file.Path readme = java.nio.file.Path.of("../../README.md");
    String pattern = java.nio.file.Files.readAllLines(readme).stream().map(String::strip)
        .filter(l -> l.startsWith("coverage: '/")).findFirst()
        .orElseThrow(() -> new AssertionError(readme.toAbsolutePath().normalize() + " has no GitLab coverage: line"))
        .replaceAll("^coverage: '/(.*)/'$", "$1");
    for (int[] grade : new int[][] {{24, 429, 56}, {0, 429, 0}, {429, 429, 1000}, {1, 3, 333}}) {
      String log = "Grading exercises/: 14 exercises\n...\n\n" + plain.totalLine(grade[0], grade[1]) + "\n";
      java.util.regex.Matcher m = java.util.regex.Pattern.compile(pattern).matcher(log);
      assertTrue(m.find(), "README's pattern " + pattern + " finds nothing in: " + log);
      assertEquals(grade[2] / 10.0, Double.parseDouble(m.group(1)), 0.0001, "read from: " + m.group());
    }
  }
}
