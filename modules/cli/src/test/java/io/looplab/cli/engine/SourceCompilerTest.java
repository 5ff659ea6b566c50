package io.looplab.cli.engine;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** javac's errors, every one up to a cap, each with file:line:column, its source line and a caret. */
class SourceCompilerTest {

  private static final String PORT_LINE = "    int port = \"8080\";";

  @TempDir
  Path dir;

  @Test
  @DisplayName("two errors: both, each with file:line:column, the source line, a caret under the column, and javac's "
      + "other lines")
  void everyErrorWithColumnLineAndCaret() throws IOException {
    SourceCompiler.Result r = compile("class Broken {\n  void a() {\n" + PORT_LINE + "\n    missing();\n  }\n}\n");
    assertFalse(r.ok());
    assertEquals(2, r.errorCount());
    String text = r.errorsAsJavacGivesThem();
    List<String> lines = text.lines().toList();
    int column = PORT_LINE.indexOf('"') + 1;
    assertEquals("2 errors", lines.get(0), text);
    // javac's own command line shortens java.lang.String to String; its API's messages keep the full name
    assertEquals("Broken.java:3:" + column + ": error: incompatible types: java.lang.String cannot be converted to "
        + "int", lines.get(1), text);
    assertEquals("    int port = \"8080\";", lines.get(2), "the source line, without its own indent: " + text);
    assertEquals(lines.get(2).indexOf('"'), lines.get(3).indexOf('^'), "the caret under the quote: " + text);
    assertEquals("Broken.java:4:5: error: cannot find symbol", lines.get(4), text);
    assertTrue(text.contains("symbol:   method missing()"), "javac's other lines of the message: " + text);
    assertEquals(lines.get(1), r.firstError());
  }

  @Test
  @DisplayName("eight errors: the first five, then how many more, and the whole stays within the report's budget")
  void manyErrorsAreCappedWithACount() throws IOException {
    StringBuilder code = new StringBuilder("class Many {\n");
    for (int i = 0; i < 8; i++) {
      code.append("  int f").append(i).append(" = \"not a number, a string of some length ").append(i).append("\";\n");
    }
    SourceCompiler.Result r = compile(code.append("}\n").toString());
    assertEquals(8, r.errorCount());
    String text = r.errorsAsJavacGivesThem();
    assertEquals(5, text.lines().filter(l -> l.startsWith("Many.java:")).count(), text);
    assertTrue(text.endsWith("... and 3 more errors (the first ones often cause the others: fix them and compile "
        + "again)"), text);
    assertTrue(text.length() <= SourceCompiler.Result.ERRORS_BUDGET + 100, text.length() + " characters");
  }

  @Test
  @DisplayName("errors with long messages stop at the budget, so the count of the rest is never what a report cuts")
  void longErrorsStopAtTheBudget() throws IOException {
    StringBuilder code = new StringBuilder("class Long {\n");
    for (int i = 0; i < 5; i++) {
      code.append("  void m").append(i).append("() { undefinedMethodWithAVeryLongNameThatGoesOnAndOn").append(i)
          .append("(\"an argument\", 1, 2.0, 'c', new java.util.ArrayList<java.util.Map<String, Integer>>()); }\n");
    }
    SourceCompiler.Result r = compile(code.append("}\n").toString());
    String text = r.errorsAsJavacGivesThem();
    assertTrue(text.length() <= SourceCompiler.Result.ERRORS_BUDGET + 100, text.length() + " characters:\n" + text);
    assertTrue(text.contains("more error"), "the rest counted: " + text);
  }

  @Test
  @DisplayName("code that compiles has no errors to give")
  void compiles() throws IOException {
    SourceCompiler.Result r = compile("class Fine {\n  int port = 8080;\n}\n");
    assertTrue(r.ok());
    assertEquals(null, r.errorsAsJavacGivesThem());
    assertEquals(null, r.firstError());
  }

  private SourceCompiler.Result compile(String source) throws IOException {
    Path sources = dir.resolve("src");
    Files.createDirectories(sources);
    String name = source.substring("class ".length(), source.indexOf(' ', "class ".length()));
    Files.writeString(sources.resolve(name + ".java"), source);
    return new SourceCompiler().compile(sources, null, dir.resolve("classes"), List.of());
  }
}
