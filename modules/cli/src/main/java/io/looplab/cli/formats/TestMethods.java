package io.looplab.cli.formats;

import io.looplab.cli.engine.Exercise;
import io.looplab.cli.engine.Kit;
import io.looplab.cli.engine.Originals;
import io.looplab.report.TestResult;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The graded tests' code, read from the kit's original test files (see {@link Originals}): a test method's source is
 * its annotations, its signature and its body, as written. The method is found by its name in its class's file, and
 * its body by counting braces outside strings, characters and comments.
 */
public final class TestMethods implements TestSource {

  private final Kit kit;
  private final Map<String, Optional<String>> fileByClass = new HashMap<>();

  public TestMethods(Kit kit) {
    this.kit = kit;
  }

  @Override
  public Optional<String> of(String exerciseId, TestResult test) {
    TestName name = TestName.of(test);
    if (name.className().isEmpty()) {
      return Optional.empty();
    }
    Optional<String> file = fileByClass.computeIfAbsent(exerciseId + "/" + name.className(),
        k -> read(exerciseId, name.className()));
    return file.flatMap(source -> method(source, name.method()));
  }

  private Optional<String> read(String exerciseId, String className) {
    Optional<Exercise> exercise = kit.exercises().stream().filter(e -> e.id().equals(exerciseId)).findFirst();
    if (exercise.isEmpty()) {
      return Optional.empty();
    }
    // a nested test class lives in its outer class's file
    String outer = className.contains("$") ? className.substring(0, className.indexOf('$')) : className;
    Path file = Originals.of(kit).of(exercise.get(), Originals.Part.TESTS).java()
        .resolve(outer.replace('.', '/') + ".java");
    try {
      return Files.isRegularFile(file) ? Optional.of(Files.readString(file)) : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** {@code method}'s declaration in {@code source}, with the annotations above it and its whole body. */
  static Optional<String> method(String source, String method) {
    Matcher m = Pattern.compile("(?m)^[ \\t]*(?:(?:public|protected|private|static|final)\\s+)*(?:<[^>]*>\\s*)?"
        + "[\\w.<>\\[\\], ?]+\\s+" + Pattern.quote(method) + "\\s*\\(").matcher(source);
    if (!m.find()) {
      return Optional.empty();
    }
    int start = annotationsAbove(source, m.start());
    int open = source.indexOf('{', m.end());
    if (open < 0) {
      return Optional.empty();
    }
    int end = closingBrace(source, open);
    if (end < 0) {
      return Optional.empty();
    }
    return Optional.of(dedent(source.substring(start, end + 1)));
  }

  /** Where the annotations (and any comment lines between them) right above the line at {@code lineStart} begin. */
  private static int annotationsAbove(String source, int lineStart) {
    int start = lineStart;
    while (start > 0) {
      int previousEnd = start - 1;
      int previousStart = source.lastIndexOf('\n', previousEnd - 1) + 1;
      String line = source.substring(previousStart, previousEnd).strip();
      if (line.startsWith("@")) {
        start = previousStart;
      } else {
        break;
      }
    }
    return start;
  }

  /** The index of the brace closing the one at {@code open}, or -1: braces in strings, chars and comments are text. */
  static int closingBrace(String s, int open) {
    int depth = 0;
    for (int i = open; i < s.length(); i++) {
      char c = s.charAt(i);
      if (s.startsWith("\"\"\"", i)) {
        int close = s.indexOf("\"\"\"", i + 3);
        if (close < 0) {
          return -1;
        }
        i = close + 2;
      } else if (c == '"' || c == '\'') {
        i = endOfLiteral(s, i, c);
      } else if (s.startsWith("//", i)) {
        int eol = s.indexOf('\n', i);
        i = eol < 0 ? s.length() : eol;
      } else if (s.startsWith("/*", i)) {
        int close = s.indexOf("*/", i + 2);
        if (close < 0) {
          return -1;
        }
        i = close + 1;
      } else if (c == '{') {
        depth++;
      } else if (c == '}') {
        depth--;
        if (depth == 0) {
          return i;
        }
      }
    }
    return -1;
  }

  private static int endOfLiteral(String s, int start, char quote) {
    for (int i = start + 1; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\') {
        i++;
      } else if (c == quote || c == '\n') {
        return i;
      }
    }
    return s.length();
  }

  /** The method's lines without the indentation they share. */
  private static String dedent(String code) {
    List<String> lines = code.lines().toList();
    int indent = lines.stream().filter(l -> !l.isBlank()).mapToInt(l -> l.length() - l.stripLeading().length())
        .min().orElse(0);
    StringBuilder out = new StringBuilder();
    for (String line : lines) {
      out.append(line.length() >= indent ? line.substring(indent) : line.stripLeading()).append('\n');
    }
    return out.toString().stripTrailing();
  }
}
