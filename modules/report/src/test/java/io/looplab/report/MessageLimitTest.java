package io.looplab.report;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static io.looplab.report.MessageLimit.MAX_MESSAGE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MessageLimitTest {

  @Test
  @DisplayName("a message of the limit's length, or none, is kept as it is")
  void shortMessagesStayWhole() {
    String kitSized = "w".repeat(MAX_MESSAGE);
    assertSame(kitSized, MessageLimit.capped(kitSized));
    assertNull(MessageLimit.capped(null));
  }

  @Test
  @DisplayName("a runaway message is cut at the limit, with a mark that counts exactly what was cut")
  void runawayMessageIsCutWithAnExactCount() {
    String runaway = "Expected a seat, got: " + "x".repeat(5_000_000);
    String cut = MessageLimit.capped(runaway);
    assertEquals(runaway.substring(0, MAX_MESSAGE) + " … [truncated: " + (runaway.length() - MAX_MESSAGE)
        + " more characters]", cut);
  }

  @Test
  @DisplayName("a message is cut once: cut again, it stays as it was, its count intact")
  void cutMessageIsNotCutAgain() {
    String cut = MessageLimit.capped("y".repeat(MAX_MESSAGE + 123));
    assertSame(cut, MessageLimit.capped(cut));
    assertTrue(cut.endsWith("[truncated: 123 more characters]"), cut);
  }

  @Test
  @DisplayName("a character outside the BMP at the limit is never split: the whole pair is cut, and counted")
  void surrogatePairIsNeverSplit() {
    String message = "y".repeat(MAX_MESSAGE - 1) + "\uD83D\uDE00 and on";
    String cut = MessageLimit.capped(message);
    int mark = cut.indexOf(" … [truncated");
    assertEquals(MAX_MESSAGE - 1, mark);
    assertFalse(Character.isHighSurrogate(cut.charAt(mark - 1)), "a character cut in two");
    assertTrue(cut.endsWith("[truncated: " + (message.length() - (MAX_MESSAGE - 1)) + " more characters]"), cut);
  }
}
