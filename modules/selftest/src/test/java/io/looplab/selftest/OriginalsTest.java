package io.looplab.selftest;

import io.looplab.grader.internal.settings.Settings;

import io.looplab.cli.commands.Handout;
import io.looplab.cli.engine.Exercise;
import io.looplab.cli.engine.Kit;
import io.looplab.cli.engine.Originals;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The originals the grader uses instead of the working copy: in a throwaway kit with git history where a learner
 * edited and committed the stub and the tests, and in this kit itself.
 */
class OriginalsTest {

  private static final String ADDER = "exercises/01-smoke/src/main/java/io/looplab/smoke/Adder.java";
  private static final String ADDER_TEST = "exercises/01-smoke/src/test/java/io/looplab/smoke/AdderTest.java";

  @TempDir
  static Path work;

  static Path root;
  static String originalAdder;
  static String originalTest;

  /** A one-exercise kit, recorded and committed as shipped; then the learner's work, committed on top. */
  @BeforeAll
  static void kitWithLearnerCommits() throws Exception {
    root = work.resolve("kit");
    HostileKit.copy(HostileKit.resource("hostile-kit"), root);
    git("init", "-q");
    Originals.record(Kit.at(root));
    git("add", "-A");
    git("commit", "-q", "-m", "the kit as shipped");
    originalAdder = Files.readString(root.resolve(ADDER));
    originalTest = Files.readString(root.resolve(ADDER_TEST));
    Files.writeString(root.resolve(ADDER), originalAdder.replace("}", "  // solved\n}"));
    Files.writeString(root.resolve(ADDER_TEST), originalTest + "\n// a learner's edit of a graded test\n");
    Files.writeString(root.resolve(ADDER).resolveSibling("Extra.java"), "package io.looplab.smoke; class Extra { }\n");
    git("add", "-A");
    git("commit", "-q", "-m", "my solution");
  }

  @Test
  @DisplayName("an edited and committed stub is replaced by its original, taken from git, and the edit is listed")
  void editedStubComesBackFromGit() throws IOException {
    Originals.Copy stub = Originals.of(Kit.at(root)).of(smoke(), Originals.Part.STUB);
    assertTrue(stub.recovered(), stub.whyNot());
    assertNotEquals(root.resolve("exercises/01-smoke/src/main"), stub.dir(), "the working copy must not be used");
    assertEquals(originalAdder, Files.readString(stub.java().resolve("io/looplab/smoke/Adder.java")));
    assertFalse(Files.exists(stub.java().resolve("io/looplab/smoke/Extra.java")), "a file the learner added is not original");
    assertEquals(List.of("java/io/looplab/smoke/Adder.java edited", "java/io/looplab/smoke/Extra.java added"), stub.changed());
  }

  @Test
  @DisplayName("edited graded tests are replaced by the originals too")
  void editedTestsComeBackFromGit() throws IOException {
    Originals.Copy tests = Originals.of(Kit.at(root)).of(smoke(), Originals.Part.TESTS);
    assertTrue(tests.recovered(), tests.whyNot());
    assertEquals(originalTest, Files.readString(tests.java().resolve("io/looplab/smoke/AdderTest.java")));
  }

  @Test
  @DisplayName("a handout of a kit whose owner solved and edited an exercise holds the stub and tests as shipped, and says so")
  void handoutShipsTheOriginals() throws IOException {
    Path handout = work.resolve("handout");
    Handout.Written written = Handout.write(Kit.at(root), handout);
    assertEquals(originalAdder, Files.readString(handout.resolve(ADDER)), "the handout holds the owner's solution");
    assertEquals(originalTest, Files.readString(handout.resolve(ADDER_TEST)), "the handout holds an edited test");
    assertFalse(Files.exists(handout.resolve(ADDER).resolveSibling("Extra.java")), "a file the owner added was shipped");
    assertEquals(List.of("exercises/01-smoke/src/main/java/io/looplab/smoke/Adder.java edited",
        "exercises/01-smoke/src/main/java/io/looplab/smoke/Extra.java added",
        "exercises/01-smoke/src/test/java/io/looplab/smoke/AdderTest.java edited"), written.restored());
  }

  @Test
  @DisplayName("without git history the working copy is used, and the copy says why the original was not had")
  void withoutHistoryTheWorkingCopyIsUsedAndSaysWhy() throws Exception {
    Path copy = work.resolve("no-history");
    HostileKit.copy(root, copy);
    deleteTree(copy.resolve(".git"));
    Originals.Copy stub = Originals.of(Kit.at(copy)).of(Kit.at(copy).find("01-smoke"), Originals.Part.STUB);
    assertFalse(stub.recovered());
    assertEquals(copy.resolve("exercises/01-smoke/src/main"), stub.dir());
    assertTrue(stub.whyNot().contains("history"), stub.whyNot());
  }

  @Test
  @DisplayName("every original this kit records can be had: unchanged in the working copy, or from the kit's git history")
  void thisKitsOriginalsAreRecoverable() {
    Kit kit = Kit.locate();
    Assumptions.assumeTrue(Files.exists(kit.root().resolve(".git")), "this kit has no git history to check against");
    List<String> missing = Originals.of(kit).unrecoverable();
    assertTrue(missing.isEmpty(), Originals.MANIFEST + " names content that neither the working copy nor git holds:\n  "
        + String.join("\n  ", missing) + "\nRecord the originals with ./lab originals --record and commit them.");
  }

  @Test
  @DisplayName("in the kit's own CI (-Dlooplab.originals.strict=true), every stub and graded test is the recorded original")
  void strictlyTheRecordedOriginals() {
    Assumptions.assumeTrue(Settings.ORIGINALS_STRICT.isTrue(),
        "not the kit's own CI: a learner's edits are expected");
    List<String> differences = Originals.of(Kit.locate()).differences();
    assertTrue(differences.isEmpty(), "these stubs or tests differ from " + Originals.MANIFEST
        + ", so the grader would grade the old originals:\n  " + String.join("\n  ", differences)
        + "\nAfter changing a stub or a test, run ./lab originals --record and commit " + Originals.MANIFEST + ".");
  }

  private static Exercise smoke() {
    return Kit.at(root).find("01-smoke");
  }

  private static void git(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("git", "-C", root.toString(), "-c", "user.name=Learner",
        "-c", "user.email=learner@example.invalid", "-c", "commit.gpgsign=false"));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes());
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "git " + String.join(" ", args) + " did not finish");
    assertEquals(0, p.exitValue(), "git " + String.join(" ", args) + ": " + output);
  }

  private static void deleteTree(Path dir) throws IOException {
    try (var walk = Files.walk(dir)) {
      for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
