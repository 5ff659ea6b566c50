package io.looplab.selftest;

import io.looplab.cli.Lab;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bad arguments and malformed submissions get one line on stderr and exit status 2, before any grading. */
// Isolated: it swaps System.err to read what the CLI says, so no other test may print meanwhile.
@Isolated
class CommandLineTest {

  @TempDir
  static Path dir;

  @ParameterizedTest(name = "lab {0}")
  @DisplayName("bad usage exits with 2 and one line")
  @ValueSource(strings = {
      "grade --bogus",
      "grade --only 99-nope",
      "grade --solutions --submission .",
      "grade --submission /no/such/folder",
      "grade --submission SELFTEST_FILE",
      "grade --submission SELFTEST_EMPTY",
      "grade --json /no/such/folder/r.json",
      "check",
      "check 99-nope",
      "hint 02-blocking-calls 7",
      "hint 02-blocking-calls zero"})
  void badUsage(String line) throws IOException {
    Path file = Files.writeString(dir.resolve("not-a-folder.txt"), "x");
    Path empty = Files.createDirectories(dir.resolve("empty"));
    String[] args = line.replace("SELFTEST_FILE", file.toString()).replace("SELFTEST_EMPTY", empty.toString()).split(" ");
    PrintStream original = System.err;
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    int status;
    try {
      status = Lab.execute(args);
    } finally {
      System.setErr(original);
    }
    String text = err.toString(StandardCharsets.UTF_8).strip();
    assertEquals(2, status, "exit status for: lab " + line + "\n" + text);
    assertTrue(text.startsWith("lab: "), "message should start with 'lab: ' but was: " + text);
    assertEquals(1, text.lines().count(), "exactly one line expected, got:\n" + text);
  }
}
