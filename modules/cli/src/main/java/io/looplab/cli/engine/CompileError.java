package io.looplab.cli.engine;

import java.util.List;

/**
 * One error of javac's, as a report shows it: {@code File.java:line:column: error: message}, then the source line
 * and a caret under the column, then the rest of javac's message ("symbol: ...", "location: ..."), as javac itself
 * prints it but with the column, which javac leaves out.
 *
 * @param file the source's file name, or null for an error of no file
 * @param line 1-based, or 0 when javac names none
 * @param column 1-based, javac's own count, or 0 when javac names none
 * @param message javac's message, which may have several lines
 * @param sourceLine the text of the line, or null when it could not be read
 * @param caretIndex where the caret goes in {@code sourceLine}, 0-based, in characters
 */
public record CompileError(String file, long line, long column, String message, String sourceLine, int caretIndex) {

  /** The room a source line takes in a report: a longer one is shown around its caret. */
  static final int CODE_WIDTH = 64;
  /** Characters kept before the caret when a long line is cut. */
  private static final int BEFORE_CARET = 24;
  private static final String CODE_INDENT = "    ";

  /** An error that is about no file, such as a folder without sources. */
  public static CompileError of(String message) {
    return new CompileError(null, 0, 0, message, null, -1);
  }

  /** The first line: where, and the first line of the message. */
  public String header() {
    String where = file == null ? "" : file + (line > 0 ? ":" + line + (column > 0 ? ":" + column : "") : "") + ": ";
    return where + "error: " + message.lines().findFirst().orElse("");
  }

  /** The whole error, in lines that the console keeps as they are (they start with spaces) but for the first. */
  public String format() {
    StringBuilder text = new StringBuilder(header());
    if (sourceLine != null && caretIndex >= 0) {
      List<String> code = codeAndCaret(sourceLine, caretIndex);
      text.append('\n').append(CODE_INDENT).append(code.get(0)).append('\n').append(CODE_INDENT).append(code.get(1));
    }
    message.lines().skip(1).forEach(rest -> text.append('\n').append(rest.startsWith(" ") ? rest : "  " + rest));
    return text.toString();
  }

  /**
   * The source line without its indentation, tabs as spaces, cut around the caret when it is long; and the caret
   * line under it. The two are computed together so that the caret stays under its character.
   */
  static List<String> codeAndCaret(String source, int caretIndex) {
    String before = source.substring(0, Math.min(caretIndex, source.length())).replace("\t", "    ");
    String after = source.substring(Math.min(caretIndex, source.length())).replace("\t", "    ");
    String code = before + after;
    int caret = before.length();
    int indent = code.length() - code.stripLeading().length();
    indent = Math.min(indent, caret);
    code = code.substring(indent).stripTrailing();
    caret -= indent;
    if (code.length() > CODE_WIDTH) {
      int start = Math.max(0, Math.min(caret - BEFORE_CARET, code.length() - CODE_WIDTH));
      int end = Math.min(code.length(), start + CODE_WIDTH);
      String window = code.substring(start, end);
      if (start > 0) {
        window = "…" + window.substring(1);
      }
      if (end < code.length()) {
        window = window.substring(0, window.length() - 1) + "…";
      }
      code = window;
      caret -= start;
    }
    return List.of(code, " ".repeat(Math.max(0, caret)) + "^");
  }
}
