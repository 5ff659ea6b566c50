package io.looplab.cli.classroom;

import io.looplab.cli.engine.UsageError;
import io.looplab.report.Standing;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.looplab.cli.classroom.EveryStanding.EXERCISES;
import static io.looplab.cli.classroom.EveryStanding.ONE;
import static io.looplab.cli.classroom.EveryStanding.TWO;
import static io.looplab.cli.classroom.EveryStanding.nameOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The report folder as files: written whole, read back row by row for a later --learner run, refused when it is none. */
class ClassReportFolderTest {

  @TempDir
  Path dir;

  @Test
  @DisplayName("a report read back gives every learner the standing, points and messages it was written with")
  void readsBackWhatItWrote() {
    List<LearnerResult> klass = new ArrayList<>(EveryStanding.klass());
    klass.add(LearnerResult.notGraded("zoe, \"odd\"", LearnerResult.NOT_A_SUBMISSION + "no such folder", 0));
    ClassReport.write(dir, "class", EXERCISES, klass);
    List<LearnerResult> back = ClassReport.read(dir);
    assertEquals(klass.stream().map(LearnerResult::learner).toList(), back.stream().map(LearnerResult::learner)
        .toList());
    for (int i = 0; i < klass.size(); i++) {
      for (String id : List.of(ONE.id(), TWO.id())) {
        assertEquals(klass.get(i).standing(id), back.get(i).standing(id), klass.get(i).learner() + " on " + id);
        assertEquals(klass.get(i).exercise(id).map(e -> e.points() + "/" + e.max() + " " + e.message()),
            back.get(i).exercise(id).map(e -> e.points() + "/" + e.max() + " " + e.message()));
      }
    }
    assertEquals("no such folder", back.get(klass.size() - 1).problem().substring(
        LearnerResult.NOT_A_SUBMISSION.length()), "the note of a learner who was not graded comes back from class.csv");
    assertEquals(ClassPage.render("class", EXERCISES, klass), ClassPage.render("class", EXERCISES, back),
        "the page of the rows read back is the page that was written");
  }

  @Test
  @DisplayName("each learner's JSON names them, not a folder's path, and lists the exercises they have not started")
  void learnerJsonHasNoPath() throws Exception {
    ClassReport.write(dir, "class", EXERCISES, EveryStanding.klass());
    JsonObject json = new JsonObject(Files.readString(dir.resolve("learners")
        .resolve(nameOf(Standing.NOT_STARTED) + ".json")));
    assertEquals(nameOf(Standing.NOT_STARTED), json.getString("target"));
    assertEquals(List.of(ONE.id(), TWO.id()), json.getJsonArray("notStarted").getList());
    for (String name : List.of("index.html", ClassReport.PROJECTOR_PAGE, "class.csv")) {
      assertTrue(Files.isRegularFile(dir.resolve(name)), name);
    }
    try (var left = Files.list(dir)) {
      assertTrue(left.noneMatch(p -> p.toString().endsWith(".next")), "no half-written file is left behind");
    }
  }

  @Test
  @DisplayName("a learner whose JSON is damaged comes back as not graded, with a message saying to grade them again")
  void damagedLearnerFile() throws Exception {
    ClassReport.write(dir, "class", EXERCISES, EveryStanding.klass());
    Files.writeString(dir.resolve("learners").resolve(nameOf(Standing.PARTIAL) + ".json"), "{\"exercises\": [");
    LearnerResult partial = ClassReport.read(dir).get(2);
    assertFalse(partial.isGraded());
    assertTrue(partial.problem().contains("--learner " + nameOf(Standing.PARTIAL)), partial.problem());
  }

  @Test
  @DisplayName("a folder without class.csv, or with a class.csv of another shape, is no report: one line, nothing read")
  void notAReport() throws Exception {
    UsageError none = assertThrows(UsageError.class, () -> ClassReport.read(dir));
    assertTrue(none.getMessage().contains("not a class report (no class.csv"), none.getMessage());
    Files.writeString(dir.resolve("class.csv"), "name,score\r\nalice,3\r\n");
    UsageError other = assertThrows(UsageError.class, () -> ClassReport.read(dir));
    assertTrue(other.getMessage().contains("not a class report's class.csv"), other.getMessage());
    assertFalse(other.getMessage().contains("\n"));
  }

  @Test
  @DisplayName("class.csv is read as RFC 4180 writes it: quoted commas, quotes and line ends, CRLF or LF")
  void csvRecords() {
    assertEquals(List.of(List.of("learner", "note"), List.of("a, \"b\"", "one\r\ntwo"), List.of("c", "")),
        ClassCsv.records("learner,note\r\n\"a, \"\"b\"\"\",\"one\r\ntwo\"\r\nc,\n"));
    String written = ClassCsv.render(EXERCISES, List.of(LearnerResult.notGraded("x,y", "why,\nso", 0)));
    assertEquals(List.of(new ClassCsv.Row("x,y", "why,\nso")), ClassCsv.read(write(written)));
  }

  private Path write(String csv) {
    try {
      return Files.writeString(dir.resolve("class.csv"), csv);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
