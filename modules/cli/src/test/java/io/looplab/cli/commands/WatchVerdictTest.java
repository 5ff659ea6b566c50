package io.looplab.cli.commands;

import io.looplab.cli.engine.Console;
import io.looplab.report.ExerciseResult;
import io.looplab.report.TestResult;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What watch says after a grading, in the words check and grade use. */
class WatchVerdictTest {

  @Test
  @DisplayName("code that does not compile: the status line, then the compiler's errors as check shows them, the "
      + "words \"does not compile\" once")
  void compileErrorIsSaidOnce() {
    String message = "Your code does not compile: 1 error\nQuoteVerticle.java:91:16: error: incompatible types: "
        + "String cannot be converted to int\n    int port = \"8080\";\n               ^";
    ExerciseResult r = ExerciseResult.of("02-blocking-calls", "Second", List.of(
        TestResult.pending("[engine:junit-jupiter]/[class:x.QTest]/[method:q()]", "q", 5))).failedToCompile(message);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    WatchLoop.verdict(Console.of(out, false, false, 80), "02-blocking-calls", r, "");
    String printed = out.toString(StandardCharsets.UTF_8);
    List<String> lines = printed.lines().toList();
    assertEquals("✗ 02-blocking-calls 0/5 · compile-error", lines.get(0));
    assertEquals(1, printed.split("does not compile", -1).length - 1, printed);
    int code = lines.indexOf("        int port = \"8080\";");
    assertTrue(code > 0, "the source line, in the message's block: " + printed);
    assertEquals(lines.get(code).indexOf('"'), lines.get(code + 1).indexOf('^'), printed);
  }
}
