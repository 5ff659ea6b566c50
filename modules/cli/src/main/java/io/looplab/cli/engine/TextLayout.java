package io.looplab.cli.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The rules that make text fit a terminal of a given width, counted in what the terminal shows: colour codes take
 * no room, and every other character (✓, ✗, ·, …) one column. {@link #UNLIMITED} is the width of a pipe or a file,
 * which no rule changes.
 */
public final class TextLayout {

  /** The width of output that is no terminal: nothing is wrapped or clipped. */
  public static final int UNLIMITED = 0;

  /** The colour codes picocli writes (SGR: ESC [ numbers m). */
  private static final Pattern COLOUR = Pattern.compile("\u001B\\[[0-9;]*m");

  private TextLayout() {
  }

  /** The columns {@code text} takes on a terminal. */
  public static int visibleLength(String text) {
    String plain = COLOUR.matcher(text).replaceAll("");
    return plain.codePointCount(0, plain.length());
  }

  /**
   * {@code text} cut to {@code width} columns, its last one "…" when something was cut. Used on plain text only (the
   * progress line, a title): a cut colour code would leave the terminal in that colour.
   */
  public static String clip(String text, int width) {
    if (width == UNLIMITED || visibleLength(text) <= width) {
      return text;
    }
    if (width <= 0) {
      return "";
    }
    return text.substring(0, text.offsetByCodePoints(0, width - 1)) + "…";
  }

  /**
   * {@code text} in lines of at most {@code width} columns, each starting with {@code indent}. A line of the text is
   * a paragraph, refilled at its spaces; a word wider than a whole line is cut where the line ends, since the
   * terminal would cut it there anyway. A paragraph that starts with a space is preformatted (a source line and its
   * caret under a compiler error, a stack frame): it keeps its spaces, and is clipped instead of refilled, so a
   * caret stays under its column.
   */
  public static List<String> wrap(String text, int width, String indent) {
    return wrap(text, width, indent, indent);
  }

  /**
   * As {@link #wrap(String, int, String)}, but the very first line starts with {@code firstIndent}: a line that goes
   * on ("  ✗ a long test name") continues further in than it began, so that it does not read as a line of its own.
   */
  public static List<String> wrap(String text, int width, String firstIndent, String indent) {
    List<String> lines = new ArrayList<>();
    for (String paragraph : text.split("\n", -1)) {
      String first = lines.isEmpty() ? firstIndent : indent;
      if (width == UNLIMITED) {
        lines.add(first + paragraph);
      } else if (paragraph.startsWith(" ")) {
        lines.add(clip(first + paragraph, width));
      } else {
        refill(paragraph, width, first, indent, lines);
      }
    }
    return lines;
  }

  private static void refill(String paragraph, int width, String firstIndent, String indent, List<String> lines) {
    StringBuilder current = new StringBuilder();
    String lineIndent = firstIndent;
    int room = Math.max(1, width - visibleLength(lineIndent));
    int used = 0;
    for (String word : paragraph.split(" +")) {
      int length = visibleLength(word);
      if (used > 0 && used + 1 + length > room) {
        lines.add(lineIndent + current);
        current.setLength(0);
        used = 0;
        lineIndent = indent;
        room = Math.max(1, width - visibleLength(lineIndent));
      }
      while (length > room) {                             // a word wider than the line: cut where the line ends
        int cut = word.offsetByCodePoints(0, room);
        lines.add(lineIndent + word.substring(0, cut));
        word = word.substring(cut);
        length -= room;
        lineIndent = indent;
        room = Math.max(1, width - visibleLength(lineIndent));
      }
      if (used > 0) {
        current.append(' ');
        used++;
      }
      current.append(word);
      used += length;
    }
    lines.add(used == 0 ? "" : lineIndent + current);     // an empty paragraph stays an empty line
  }
}
