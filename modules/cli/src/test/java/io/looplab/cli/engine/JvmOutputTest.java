package io.looplab.cli.engine;

import io.looplab.grader.internal.scoring.VerdictFormat;
import io.looplab.grader.internal.scoring.VerdictStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A grading JVM's output: the verdict's lines go to the verdict, the rest to the log as it was printed. */
class JvmOutputTest {

  @TempDir
  Path dir;

  private String drain(String output, VerdictStream stream, long cap) throws Exception {
    Path log = dir.resolve("output.log");
    JvmOutput.drain(new ByteArrayInputStream(output.getBytes(StandardCharsets.UTF_8)), log, cap, stream);
    return Files.readString(log);
  }

  private static String record(String body) {
    return "\n" + VerdictFormat.MARK + " " + body + "\n";
  }

  @Test
  @DisplayName("the verdict's lines, with the newline each brings, are taken out; the code's output stays as printed")
  void recordsLeaveTheLogAsPrinted() throws Exception {
    VerdictStream stream = new VerdictStream(VerdictFormat.newKey());
    String printed = "first line\nhalf a li" + record("1 1 1 aGk= 00") + "ne\n\n\nlast, no newline";
    String log = drain(printed, stream, ForkedJvm.MAX_LOG_BYTES);
    assertEquals("first line\nhalf a li\nne\n\n\nlast, no newline", log,
        "a record only ends a half-printed line; blank lines of the code's own are kept");
    assertTrue(stream.problem().isPresent(), "the made-up record was handed to the verdict, which refused it");
  }

  @Test
  @DisplayName("a line that only starts like the mark, or has it further in, is the code's output")
  void lookAlikesAreOutput() throws Exception {
    VerdictStream stream = new VerdictStream(VerdictFormat.newKey());
    String mark = VerdictFormat.MARK;
    String printed = mark.substring(0, 5) + "\n" + "say " + mark + " 1 1 1 x y\n" + mark.substring(0, 9);
    assertEquals(printed, drain(printed, stream, ForkedJvm.MAX_LOG_BYTES));
    assertTrue(stream.problem().isEmpty(), stream.problem().orElse(""));
  }

  @Test
  @DisplayName("the log stops at its cap and counts what it dropped; records past the cap still reach the verdict")
  void capCountsDroppedBytes() throws Exception {
    VerdictStream stream = new VerdictStream(VerdictFormat.newKey());
    String flood = "y".repeat(100) + "\n";
    String log = drain(flood.repeat(10) + record("2 1 1 x 00"), stream, 250);
    assertEquals(250, log.length());
    assertTrue(stream.problem().orElseThrow().contains("out of place"), "the record after the flood was judged");
  }

  @Test
  @DisplayName("a line in the mark's form longer than any record is cut, and refused")
  void overlongRecordLine() throws Exception {
    VerdictStream stream = new VerdictStream(VerdictFormat.newKey());
    drain(record("1 1 1 " + "A".repeat(100_000) + " 00"), stream, ForkedJvm.MAX_LOG_BYTES);
    assertTrue(stream.problem().isPresent());
  }
}
