package io.looplab.cli.engine;

import io.looplab.report.ExerciseResult;
import io.looplab.report.TestResult;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Help.Ansi;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Colour on a terminal, none when NO_COLOR is set or output is not a terminal, and a forced choice wins; on a
 * terminal everything fits its width, to a pipe nothing is wrapped.
 */
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

  private static final Exercise LONG_NAMED = new Exercise("01-event-loop-threads",
      "The event loop: which thread runs your code, and what async does not do for you", Path.of("."), 90,
      List.of(), List.of(), 17);
  private static final String LONG_TEST = "testing 3/9: once the directory has answered on its own thread, the "
      + "answer is written on the verticle's event loop";

  @Test
  @DisplayName("on a live terminal each progress update is clipped one column short of the width, and the next line "
      + "clears it")
  void progressIsClippedToTheWidth() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Console console = new Console(out, Ansi.OFF, true, 80);
    GradingEngine.Progress progress = console.progress(1, 1);
    progress.update(LONG_NAMED, "compiling");
    progress.update(LONG_NAMED, LONG_TEST);
    console.line("01-event-loop-threads: done");
    String printed = out.toString(StandardCharsets.UTF_8);
    String[] updates = printed.split("\r\u001B\\[K");
    assertEquals(4, updates.length, "two updates, then the clear before the line: " + List.of(updates));
    assertEquals("  [1/1] 01-event-loop-threads  compiling", updates[1]);
    assertEquals(79, TextLayout.visibleLength(updates[2]), "'" + updates[2] + "'");
    assertTrue(updates[2].endsWith("…"), updates[2]);
    assertEquals("01-event-loop-threads: done" + System.lineSeparator(), updates[3]);
  }

  @Test
  @DisplayName("on a terminal a long message is wrapped at spaces within the width; to a pipe it stays one line")
  void messagesWrapOnlyOnATerminal() {
    String message = "Blocking call on the event loop: Files.readString, called from disclaimer() at "
        + "QuoteVerticle.java:96 (thread vert.x-eventloop-thread-0); inside it, a file read. An event loop serves "
        + "every request with one thread; while it waits, everything else waits too.";
    ByteArrayOutputStream terminal = new ByteArrayOutputStream();
    new Console(terminal, Ansi.OFF, true, 80).wrapped(message, "          ");
    List<String> lines = terminal.toString(StandardCharsets.UTF_8).lines().toList();
    assertTrue(lines.size() >= 3, lines.toString());
    lines.forEach(l -> assertTrue(l.length() <= 80, l.length() + " columns: " + l));
    assertEquals(message, String.join(" ", lines.stream().map(String::strip).toList()), "words lost or cut");
    ByteArrayOutputStream pipe = new ByteArrayOutputStream();
    new Console(pipe).wrapped(message, "          ");
    assertEquals(List.of("          " + message), pipe.toString(StandardCharsets.UTF_8).lines().toList());
  }

  @Test
  @DisplayName("a line too wide for the terminal goes on at a space, two columns further in")
  void wideLineGoesOnFurtherIn() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    new Console(out, Ansi.OFF, false, 40).line("      ✗ every request is handled on the verticle's own event "
        + "loop  (0/3)");
    assertEquals(List.of("      ✗ every request is handled on the", "        verticle's own event loop (0/3)"),
        out.toString(StandardCharsets.UTF_8).lines().toList());
  }

  @Test
  @DisplayName("a table row fits 80 columns by clipping its title, shows more of it at 200, and keeps 52 to a pipe")
  void rowsFitTheWidth() {
    String title = LONG_NAMED.title();
    Console narrow = new Console(new ByteArrayOutputStream(), Ansi.OFF, false, 80);
    String row80 = narrow.row("✓", LONG_NAMED.id(), title, narrow.titleWidth(title.length(), 15), "24/24 done");
    assertTrue(TextLayout.visibleLength(row80) <= 80, row80.length() + ": " + row80);
    assertTrue(row80.contains("The event loop: which") && row80.contains("…") && row80.endsWith("24/24 done"), row80);
    String longer = narrow.row("·", LONG_NAMED.id(), title, narrow.titleWidth(title.length(), 15),
        "needs JDK 21 or newer (this is JDK 17)");
    assertTrue(TextLayout.visibleLength(longer) <= 80, "a longer state takes the title's room: " + longer);
    Console wide = new Console(new ByteArrayOutputStream(), Ansi.OFF, false, 200);
    String row200 = wide.row("✓", LONG_NAMED.id(), title, wide.titleWidth(title.length(), 15), "24/24 done");
    assertTrue(row200.contains(title + " 24/24 done"), "the whole title at 200 columns: " + row200);
    Console pipe = new Console(new ByteArrayOutputStream());
    String piped = pipe.row("✓", LONG_NAMED.id(), title, pipe.titleWidth(title.length(), 15), "24/24 done");
    assertTrue(piped.contains(title.substring(0, 51) + "… 24/24 done"), piped);
  }

  @Test
  @DisplayName("a compile error keeps its source line and its caret under the column, whatever the width")
  void compileErrorKeepsItsCaret() {
    String error = "Your code does not compile: 1 error\nQuoteVerticle.java:91:17: error: incompatible types: "
        + "String cannot be converted to int\n    int port = \"8080\";\n               ^";
    ExerciseResult r = ExerciseResult.of("02-blocking-calls", "Second", List.of(
        TestResult.pending("[engine:junit-jupiter]/[class:x.QTest]/[method:q()]", "q", 5))).failedToCompile(error);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    new Console(out, Ansi.OFF, false, 60).testLines(r, false);
    List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
    int code = lines.indexOf("          int port = \"8080\";");
    assertTrue(code > 0, "the source line, indented as a block: " + lines);
    assertEquals(lines.get(code).indexOf('"'), lines.get(code + 1).indexOf('^'), "caret under the quote: " + lines);
    lines.forEach(l -> assertTrue(l.length() <= 60, l));
  }
}
