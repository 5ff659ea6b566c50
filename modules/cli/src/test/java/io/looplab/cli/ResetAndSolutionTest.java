package io.looplab.cli;

import io.looplab.cli.engine.Kit;
import io.looplab.cli.engine.Results;
import io.looplab.report.ExerciseResult;
import io.looplab.report.TestResult;
import io.looplab.report.TestStatus;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** lab reset puts the stub back only when asked and keeps a backup; lab solution shows the reference once earned. */
class ResetAndSolutionTest {

  private static final String EDIT = "class Task {\n  int mine = 1;\n}\n";

  @TempDir
  Path dir;
  TinyKit kit;

  @BeforeEach
  void makeKit() throws IOException {
    kit = TinyKit.create(dir);
  }

  @Test
  @DisplayName("reset --yes restores the stub and keeps the learner's version in backups/")
  void resetRestoresAndBacksUp() throws IOException {
    String stub = Files.readString(kit.stub("02-blocking-calls"));
    Files.writeString(kit.stub("02-blocking-calls"), EDIT);
    TinyKit.Run run = kit.lab("", "reset", "02", "--yes");
    assertEquals(0, run.status(), run.err());
    assertEquals(stub, Files.readString(kit.stub("02-blocking-calls")), "the stub should be back");
    List<Path> backups = backupsOf("02-blocking-calls");
    assertEquals(1, backups.size(), "one backup expected: " + backups);
    assertEquals(EDIT, Files.readString(backups.get(0)), "the backup should hold the learner's version");
    assertTrue(run.out().contains("Your version is in backups/02-blocking-calls/"), run.out());
  }

  @Test
  @DisplayName("reset asks first: \"y\" resets, anything else changes nothing, and no answer at all is refused")
  void resetAsksFirst() throws IOException {
    Files.writeString(kit.stub("02-blocking-calls"), EDIT);
    TinyKit.Run no = kit.lab("n\n", "reset", "02");
    assertEquals(0, no.status(), no.err());
    assertTrue(no.out().contains("[y/N]") && no.out().contains("Nothing changed."), no.out());
    assertEquals(EDIT, Files.readString(kit.stub("02-blocking-calls")), "\"n\" must change nothing");

    TinyKit.Run silent = kit.lab("", "reset", "02");
    assertEquals(2, silent.status(), silent.err());
    assertTrue(silent.errLine().startsWith("lab: ") && silent.errLine().contains("--yes"), silent.err());
    assertEquals(1, silent.errLine().lines().count(), silent.err());
    assertEquals(EDIT, Files.readString(kit.stub("02-blocking-calls")), "no answer must change nothing");
    assertTrue(backupsOf("02-blocking-calls").isEmpty(), "nothing replaced, so no backup");

    TinyKit.Run yes = kit.lab("y\n", "reset", "02");
    assertEquals(0, yes.status(), yes.err());
    assertFalse(Files.readString(kit.stub("02-blocking-calls")).contains("mine"), "\"y\" should reset");
  }

  @Test
  @DisplayName("reset of an untouched exercise says so and changes nothing")
  void resetOfTheStubIsANoOp() {
    TinyKit.Run run = kit.lab("", "reset", "01", "--yes");
    assertEquals(0, run.status(), run.err());
    assertTrue(run.out().contains("is already the kit's stub: nothing to reset"), run.out());
    assertTrue(backupsOf("01-first-steps").isEmpty());
  }

  @Test
  @DisplayName("reset forgets the exercise's last score, which no longer describes the code")
  void resetForgetsTheScore() throws IOException {
    Files.writeString(kit.stub("02-blocking-calls"), EDIT);
    record("02-blocking-calls", true);
    kit.lab("", "reset", "02", "--yes");
    assertTrue(new Results(Kit.at(kit.root())).latest(exercise("02-blocking-calls")).isEmpty());
  }

  @Test
  @DisplayName("solution is refused before full marks, and shown as a diff after them or with --force")
  void solutionOnceEarned() throws IOException {
    record("03-execute-blocking", false);
    TinyKit.Run early = kit.lab("", "solution", "03");
    assertEquals(2, early.status());
    assertTrue(early.errLine().contains("you have 0/5") && early.errLine().contains("--force"), early.err());

    TinyKit.Run forced = kit.lab("", "solution", "03", "--force");
    assertEquals(0, forced.status(), forced.err());
    assertTrue(forced.out().contains("-  // TODO: 03-execute-blocking") && forced.out().contains("+  int answer = 42;"),
        "a diff from the learner's code to the reference:\n" + forced.out());

    record("03-execute-blocking", true);
    TinyKit.Run earned = kit.lab("", "solution", "03");
    assertEquals(0, earned.status(), earned.err());
    assertTrue(earned.out().contains("+  int answer = 42;"), earned.out());
  }

  @Test
  @DisplayName("solution in a kit without solutions/ says why, in one line")
  void solutionWithoutSolutions() throws IOException {
    io.looplab.cli.engine.FileTrees.delete(kit.root().resolve("solutions"));
    TinyKit.Run run = kit.lab("", "solution", "02", "--force");
    assertEquals(2, run.status());
    assertTrue(run.errLine().contains("no reference solution"), run.err());
    assertEquals(1, run.errLine().lines().count(), run.err());
  }

  @Test
  @DisplayName("list calls an exercise edited only when its content changed since it was graded")
  void editedMeansChangedContent() throws IOException {
    record("02-blocking-calls", false);
    String original = Files.readString(kit.stub("02-blocking-calls"));
    assertFalse(listLine("02-blocking-calls").contains("edited since"), "just graded");
    Files.writeString(kit.stub("02-blocking-calls"), original);
    assertTrue(kit.stub("02-blocking-calls").toFile().setLastModified(System.currentTimeMillis() + 60_000));
    assertFalse(listLine("02-blocking-calls").contains("edited since"), "saved again, unchanged: not an edit");
    Files.writeString(kit.stub("02-blocking-calls"), EDIT);
    assertTrue(listLine("02-blocking-calls").contains("edited since"), "changed: an edit");
    Files.writeString(kit.stub("02-blocking-calls"), original);
    assertFalse(listLine("02-blocking-calls").contains("edited since"), "put back exactly as it was: not an edit");
  }

  private String listLine(String id) {
    TinyKit.Run run = kit.lab("", "list");
    assertEquals(0, run.status(), run.err());
    return run.out().lines().filter(l -> l.contains(id)).findFirst().orElseThrow();
  }

  /** Saves a result as ./lab check would: full marks or none, out of 5. */
  private void record(String id, boolean full) {
    TestResult test = TestResult.pending("t", "the one test", 5)
        .recorded(full ? TestStatus.PASSED : TestStatus.FAILED, full ? null : "wrong");
    new Results(Kit.at(kit.root())).save(ExerciseResult.of(id, "Exercise " + id, List.of(test)));
  }

  private io.looplab.cli.engine.Exercise exercise(String id) {
    return Kit.at(kit.root()).find(id);
  }

  private List<Path> backupsOf(String id) {
    Path backups = kit.root().resolve("backups").resolve(id);
    if (!Files.isDirectory(backups)) {
      return List.of();
    }
    try (Stream<Path> walk = Files.walk(backups)) {
      return walk.filter(Files::isRegularFile).toList();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
