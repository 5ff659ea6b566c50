package io.looplab.cli.engine;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Help.Ansi;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
}
