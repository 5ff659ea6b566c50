package io.looplab.grader.internal.scoring;

import io.looplab.report.ExerciseResult;
import io.looplab.report.TestResult;
import io.looplab.report.TestStatus;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The verdict's way from the grading JVM to the kit: only whole records, signed with the JVM's key and in their
 * order, are believed; any line in their form that is not one makes the kit believe nothing that JVM says.
 */
class VerdictStreamTest {

  private static final Path JOB = Path.of("/work/09/report.json");
  private final byte[] key = VerdictFormat.newKey();

  private static InFlightReport report(boolean passed, boolean finished) {
    TestResult test = TestResult.pending("[engine:junit-jupiter]/[class:T]/[method:a()]", "a works", 5);
    return new InFlightReport(ExerciseResult.of("09-lost-update", "Lost update",
        List.of(passed ? test.recorded(TestStatus.PASSED, null) : test)), null, finished);
  }

  /** The lines of record {@code number}, without their newlines, as the kit's reader hands them over. */
  private static List<String> lines(byte[] key, long number, InFlightReport report) {
    List<String> lines = new ArrayList<>();
    for (String line : VerdictChannel.lines(key, number, VerdictChannel.payload(JOB, report))) {
      lines.add(line.strip());
    }
    return lines;
  }

  private static void feed(VerdictStream stream, List<String> lines) {
    lines.forEach(stream::accept);
  }

  @Test
  @DisplayName("records signed with the JVM's key and in order are believed, and the latest one counts")
  void signedRecordsInOrder() {
    VerdictStream stream = new VerdictStream(key);
    feed(stream, lines(key, 1, report(false, false)));
    feed(stream, lines(key, 2, report(true, true)));
    assertTrue(stream.problem().isEmpty(), stream.problem().orElse(""));
    InFlightReport latest = stream.latest(JOB).orElseThrow();
    assertTrue(latest.finished());
    assertEquals(5, latest.report().points());
    assertEquals(2, stream.records());
    assertTrue(stream.latest(Path.of("/work/other/report.json")).isEmpty(), "a job it never named has no report");
  }

  @Test
  @DisplayName("a record too long for one line travels in parts and is put back together")
  void longRecordInParts() {
    ExerciseResult report = report(false, true).report();
    report = ExerciseResult.of(report.id(), report.title(),
        List.of(report.tests().get(0).recorded(TestStatus.FAILED, "x".repeat(1_400))));
    for (int i = 0; i < 40; i++) {
      report = report.withNote("a note of the kit's, long enough to need many parts, number " + i + ".");
    }
    InFlightReport big = new InFlightReport(report, null, true);
    List<String> lines = lines(key, 1, big);
    assertTrue(lines.size() > 1, "the record should need more than one line, got " + lines.size());
    lines.forEach(l -> assertTrue(l.length() < 4_000, "a line must stay under what a pipe writes whole"));
    VerdictStream stream = new VerdictStream(key);
    feed(stream, lines);
    assertEquals(big.report().message(), stream.latest(JOB).orElseThrow().report().message());
  }

  @Test
  @DisplayName("a record signed with another key is not believed, and neither is anything after it")
  void anotherKeyIsRefused() {
    VerdictStream stream = new VerdictStream(key);
    feed(stream, lines(key, 1, report(false, false)));
    feed(stream, lines(VerdictFormat.newKey(), 2, report(true, true)));
    feed(stream, lines(key, 3, report(true, true)));
    assertTrue(stream.problem().orElseThrow().contains("not signed by the grader"), stream.problem().orElseThrow());
    assertTrue(stream.latest(JOB).isEmpty(), "nothing of a JVM that forged a record is believed");
  }

  @Test
  @DisplayName("a genuine record played again, or out of its order, is refused")
  void replayIsRefused() {
    List<String> first = lines(key, 1, report(true, true));
    VerdictStream replayed = new VerdictStream(key);
    feed(replayed, first);
    feed(replayed, first);
    assertTrue(replayed.problem().orElseThrow().contains("out of place"), replayed.problem().orElseThrow());

    VerdictStream skipped = new VerdictStream(key);
    feed(skipped, lines(key, 2, report(true, true)));
    assertTrue(skipped.problem().isPresent(), "record 2 cannot come first");
  }

  @Test
  @DisplayName("a record whose text was changed after it was signed is refused")
  void changedTextIsRefused() {
    String line = lines(key, 1, report(false, true)).get(0);
    String[] fields = line.split(" ");
    String forged = new String(java.util.Base64.getDecoder().decode(fields[4]), java.nio.charset.StandardCharsets.UTF_8)
        .replace("\"status\":\"pending\"", "\"status\":\"passed\"");
    fields[4] = java.util.Base64.getEncoder().encodeToString(forged.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    VerdictStream stream = new VerdictStream(key);
    stream.accept(String.join(" ", fields));
    assertTrue(stream.problem().orElseThrow().contains("not signed by the grader"), stream.problem().orElseThrow());
  }

  @Test
  @DisplayName("lines in the record's form that are not records (cut short, garbled, a part missing) are refused")
  void malformedLinesAreRefused() {
    for (String bad : List.of(VerdictFormat.MARK, VerdictFormat.MARK + " 1 1 1", VerdictFormat.MARK + " one 1 1 x y",
        VerdictFormat.MARK + " 1 1 1 !!! " + "0".repeat(64), VerdictFormat.MARK + " 1 2 2 abc " + "0".repeat(64))) {
      VerdictStream stream = new VerdictStream(key);
      stream.accept(bad);
      assertTrue(stream.problem().isPresent(), "should refuse: " + bad);
      assertFalse(stream.latest(JOB).isPresent());
    }
  }

  @Test
  @DisplayName("the key line the kit sends first is read back whole, and nothing else passes for one")
  void keyLine() {
    byte[] back = VerdictFormat.parseKeyLine(VerdictFormat.keyLine(key)).orElseThrow();
    assertTrue(java.util.Arrays.equals(key, back));
    for (String other : new String[] {null, "", "go", "key ", "key 00ff", "key " + "zz".repeat(32)}) {
      assertTrue(VerdictFormat.parseKeyLine(other).isEmpty(), "not a key line: " + other);
    }
  }

  @Test
  @DisplayName("the answer to 'where are your tests' travels as a signed record too, beside the report it leaves as it was")
  void whereAnswer() {
    VerdictStream stream = new VerdictStream(key);
    feed(stream, lines(key, 1, report(false, false)));
    String where = new io.vertx.core.json.JsonObject().put("job", JOB.toString()).put("where",
        new io.vertx.core.json.JsonObject().put("text", "still running your code").put("inLearnersCode", true)).encode();
    VerdictChannel.lines(key, 2, where).forEach(l -> stream.accept(l.strip()));
    assertEquals(new VerdictStream.Where("still running your code", true), stream.where(JOB).orElseThrow());
    assertFalse(stream.latest(JOB).orElseThrow().finished(), "the report is the one before the answer");
  }
}
