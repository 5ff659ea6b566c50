package io.looplab.cli.engine;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** COLUMNS first, then stty's answer, then 80. */
class TerminalWidthTest {

  @Test
  @DisplayName("a positive COLUMNS wins over stty's answer")
  void columnsWins() {
    assertEquals(132, TerminalWidth.decide("132", "50 200\n"));
    assertEquals(132, TerminalWidth.decide(" 132 ", null));
  }

  @Test
  @DisplayName("without COLUMNS (or with one that is no positive number) the width is the second number stty gives")
  void thenStty() {
    assertEquals(200, TerminalWidth.decide(null, "50 200\n"));
    assertEquals(97, TerminalWidth.decide("wide", "24 97"));
    assertEquals(97, TerminalWidth.decide("0", "24 97"));
  }

  @Test
  @DisplayName("a terminal that says nothing usable is 80 columns wide")
  void elseEighty() {
    assertEquals(80, TerminalWidth.decide(null, null));
    assertEquals(80, TerminalWidth.decide("", ""));
    assertEquals(80, TerminalWidth.decide(null, "stty: 'standard input': Inappropriate ioctl for device"));
    assertEquals(80, TerminalWidth.decide(null, "0 0"), "a terminal of no size (some containers say so)");
    assertEquals(80, TerminalWidth.decide("-5", "24"));
  }
}
