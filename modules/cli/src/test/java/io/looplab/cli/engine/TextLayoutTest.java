package io.looplab.cli.engine;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The rules that make text fit a terminal: wrap at spaces, clip, count what the terminal shows. */
class TextLayoutTest {

  private static final String SENTENCE = "An event loop serves every request with one thread; while it waits, "
      + "everything else waits too, so a blocking call stalls every client at once.";

  @Test
  @DisplayName("a paragraph is wrapped at spaces: every line within the width, every word whole and in its order")
  void wrapsAtSpaces() {
    List<String> lines = TextLayout.wrap(SENTENCE, 30, "    ");
    for (String line : lines) {
      assertTrue(line.length() <= 30, "longer than 30 columns: '" + line + "' in " + lines);
      assertTrue(line.startsWith("    ") && !line.startsWith("     "), "not indented by 4: '" + line + "'");
    }
    assertEquals(Arrays.asList(SENTENCE.split(" ")), words(lines), "the words, whole and in order, in " + lines);
    assertTrue(lines.size() >= 5, "a 150-character sentence in 26 columns takes 5 lines or more: " + lines);
  }

  @Test
  @DisplayName("a line that goes on continues further in than it began, so it does not read as a line of its own")
  void continuationIsIndentedFurther() {
    List<String> lines = TextLayout.wrap(SENTENCE, 40, "  ", "    ");
    assertTrue(lines.get(0).startsWith("  An event"), lines.get(0));
    lines.subList(1, lines.size()).forEach(l -> assertTrue(l.startsWith("    ") && !l.startsWith("     "), l));
  }

  @Test
  @DisplayName("a word wider than the whole line is cut where the line ends, and nothing of it is lost")
  void overlongWordIsCutAtTheEdge() {
    String json = "{\"user\":\"ada\",\"profile\":{\"name\":\"Ada\",\"city\":\"London\"}}";
    List<String> lines = TextLayout.wrap("body " + json + " end", 20, "");
    lines.forEach(l -> assertTrue(l.length() <= 20, "'" + l + "' in " + lines));
    assertTrue(lines.size() >= 3, "58 characters in lines of 20: " + lines);
    assertEquals("body" + json + "end", String.join("", lines).replace(" ", ""), "the pieces put back: " + lines);
  }

  @Test
  @DisplayName("a line that starts with a space (a source line, a caret) keeps its spaces and is clipped, not refilled")
  void preformattedLinesKeepTheirColumns() {
    String error = "Task.java:3:13: error: ';' expected\n    int x = 1 + y\n                 ^";
    List<String> lines = TextLayout.wrap(error, 80, "  ");
    assertEquals(List.of("  Task.java:3:13: error: ';' expected", "      int x = 1 + y", "                   ^"), lines);
    List<String> narrow = TextLayout.wrap("    " + "x".repeat(50), 20, "");
    assertEquals(List.of("    " + "x".repeat(15) + "…"), narrow);
  }

  @Test
  @DisplayName("to a pipe or a file (no width) nothing is wrapped or clipped")
  void unlimitedChangesNothing() {
    assertEquals(List.of("  " + SENTENCE), TextLayout.wrap(SENTENCE, TextLayout.UNLIMITED, "  "));
    assertEquals(SENTENCE, TextLayout.clip(SENTENCE, TextLayout.UNLIMITED));
  }

  @Test
  @DisplayName("clipping counts columns as the terminal shows them: colour codes take none, ✓ takes one, … marks a cut")
  void clipCountsVisibleColumns() {
    assertEquals(3, TextLayout.visibleLength("\u001B[32m✓ a\u001B[39m\u001B[0m"));
    assertEquals("testing 3/9: every re…", TextLayout.clip("testing 3/9: every request is handled", 22));
    assertEquals(22, TextLayout.visibleLength(TextLayout.clip("testing 3/9: every request is handled", 22)));
    assertEquals("exactly ten", TextLayout.clip("exactly ten", 11), "a text as wide as the limit stays whole");
    assertEquals("", TextLayout.clip("anything", -1), "no room at all");
  }

  @Test
  @DisplayName("an empty line of a message stays an empty line")
  void emptyParagraphStays() {
    assertEquals(List.of("  one", "", "  two"), TextLayout.wrap("one\n\ntwo", 40, "  "));
  }

  private static List<String> words(List<String> lines) {
    return lines.stream().flatMap(l -> Arrays.stream(l.strip().split(" "))).toList();
  }
}
