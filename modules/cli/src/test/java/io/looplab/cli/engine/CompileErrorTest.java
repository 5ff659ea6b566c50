package io.looplab.cli.engine;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A source line and its caret, as a report shows them: the caret always under the character javac pointed at. */
class CompileErrorTest {

  @Test
  @DisplayName("the line's own indent goes, tabs become spaces, and the caret moves with them")
  void indentAndTabs() {
    String source = "\t\tint port = \"8080\";";
    List<String> shown = CompileError.codeAndCaret(source, source.indexOf('"'));
    assertEquals("int port = \"8080\";", shown.get(0));
    assertEquals(shown.get(0).indexOf('"'), shown.get(1).indexOf('^'));
    String mixed = "int\ta = b;";
    List<String> tabbed = CompileError.codeAndCaret(mixed, mixed.indexOf('b'));
    assertEquals(tabbed.get(0).indexOf('b'), tabbed.get(1).indexOf('^'), tabbed.toString());
  }

  @Test
  @DisplayName("a long line is shown around its caret, cut with … on the sides, and the caret stays on its character")
  void longLineIsAWindowAroundTheCaret() {
    String source = "return client.get(\"/a/very/long/path\").send().compose(r -> r.bodyAsJson(Quote.class))"
        + ".map(q -> q.price() * rate).onFailure(e -> log(e)).recover(e -> Future.succeededFuture(0.0));";
    int caret = source.indexOf("rate");
    List<String> shown = CompileError.codeAndCaret(source, caret);
    assertTrue(shown.get(0).length() <= CompileError.CODE_WIDTH, shown.get(0));
    assertTrue(shown.get(0).startsWith("…") && shown.get(0).endsWith("…"), shown.get(0));
    assertEquals("rate", shown.get(0).substring(shown.get(1).indexOf('^'), shown.get(1).indexOf('^') + 4),
        shown.toString());
  }

  @Test
  @DisplayName("an error of no file is its message alone")
  void noFile() {
    assertEquals("error: no .java files in src/main/java", CompileError.of("no .java files in src/main/java").format());
  }
}
