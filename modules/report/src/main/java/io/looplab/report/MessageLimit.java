package io.looplab.report;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one rule that cuts a message in a report. Nothing else may cut one: a message cut twice would carry a mark
 * that no longer counts what was cut.
 */
public final class MessageLimit {

  /**
   * The longest message a report carries. The kit's own explanations reach about 1,350 characters (09's and 12's
   * races, with their evidence); past this, the text is someone's runaway output (an exception whose message is a
   * whole file, say), and the report must stay readable and small.
   */
  public static final int MAX_MESSAGE = 1_500;

  /** The mark that ends a message cut by {@link #capped}. */
  private static final Pattern CUT_MARK = Pattern.compile(" … \\[truncated: \\d+ more characters]$");

  private MessageLimit() {
  }

  /**
   * {@code message} cut at {@link #MAX_MESSAGE} characters, with a mark that says how much was cut. A message cut
   * already (the kit reads back what the grading JVM wrote) stays as it is.
   */
  public static String capped(String message) {
    if (message == null || message.length() <= MAX_MESSAGE) {
      return message;
    }
    Matcher mark = CUT_MARK.matcher(message);
    if (mark.find() && mark.start() <= MAX_MESSAGE) {
      return message;
    }
    int end = MAX_MESSAGE;
    if (Character.isHighSurrogate(message.charAt(end - 1))) {
      end--;                                              // never split a character in two
    }
    return message.substring(0, end) + " … [truncated: " + (message.length() - end) + " more characters]";
  }
}
