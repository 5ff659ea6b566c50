package io.looplab.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * What a terminal of a given width shows after some output, for tests that check how output looks: text, carriage
 * return, newline, "erase to the end of the line" (ESC [ K), other escape sequences (colours) shown as nothing, and
 * a line that reaches the last column going on on the next one, as xterm and the Linux console do.
 */
final class TerminalScreen {

  private final int width;
  private final List<StringBuilder> rows = new ArrayList<>(List.of(new StringBuilder()));
  private int row;
  private int column;
  /** The last column was written: the next character goes to the start of the next line (xterm's pending wrap). */
  private boolean wrapPending;

  private TerminalScreen(int width) {
    this.width = width;
  }

  /** The screen's lines, trailing blank ones left out, after {@code output} was written on a blank screen. */
  static List<String> show(String output, int width) {
    TerminalScreen screen = new TerminalScreen(width);
    int i = 0;
    while (i < output.length()) {
      char c = output.charAt(i);
      if (c == '\u001B' && i + 1 < output.length() && output.charAt(i + 1) == '[') {
        int end = i + 2;
        while (end < output.length() && !Character.isLetter(output.charAt(end))) {
          end++;
        }
        if (end < output.length() && output.charAt(end) == 'K') {
          screen.eraseToEnd();
        }
        i = end + 1;
        continue;
      }
      switch (c) {
        case '\r' -> {
          screen.column = 0;
          screen.wrapPending = false;
        }
        case '\n' -> screen.newLine();
        default -> screen.put(output.codePointAt(i));
      }
      i += Character.charCount(output.codePointAt(i));
    }
    List<String> lines = new ArrayList<>(screen.rows.stream().map(StringBuilder::toString).toList());
    while (!lines.isEmpty() && lines.get(lines.size() - 1).isBlank()) {
      lines.remove(lines.size() - 1);
    }
    return lines;
  }

  private void put(int codePoint) {
    if (wrapPending) {
      newLine();
    }
    StringBuilder line = rows.get(row);
    while (line.codePointCount(0, line.length()) < column) {
      line.append(' ');
    }
    int at = line.offsetByCodePoints(0, column);
    if (at < line.length()) {
      int next = line.offsetByCodePoints(at, 1);
      line.replace(at, next, new String(Character.toChars(codePoint)));
    } else {
      line.appendCodePoint(codePoint);
    }
    column++;
    if (column == width) {
      column = width - 1;
      wrapPending = true;
    }
  }

  private void eraseToEnd() {
    StringBuilder line = rows.get(row);
    if (line.codePointCount(0, line.length()) > column) {
      line.setLength(line.offsetByCodePoints(0, column));
    }
  }

  private void newLine() {
    row++;
    column = 0;
    wrapPending = false;
    while (rows.size() <= row) {
      rows.add(new StringBuilder());
    }
  }
}
