package io.looplab.cli;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Help where people look for it, exercises named the way people name them, and one clear line for a bad input. */
class CommandHabitsTest {

  @TempDir
  static Path dir;
  static TinyKit kit;

  @BeforeAll
  static void makeKit() throws IOException {
    kit = TinyKit.create(dir);
  }

  @ParameterizedTest(name = "lab {0}")
  @DisplayName("every command has help, with its options and an example")
  @ValueSource(strings = {"list", "check", "hint", "reset", "solution", "grade", "originals", "join", "submit",
      "serve"})
  void everyCommandHasHelp(String command) {
    for (String[] args : new String[][] {{command, "--help"}, {command, "-h"}, {"help", command}}) {
      TinyKit.Run run = kit.lab("", args);
      assertEquals(0, run.status(), String.join(" ", args) + " should succeed:\n" + run.err());
      assertTrue(run.out().startsWith("Usage: lab " + command), String.join(" ", args) + " printed:\n" + run.out());
      assertTrue(run.out().contains("-h, --help"), "the help of " + command + " lists its options:\n" + run.out());
      if (!command.equals("originals")) {
        assertTrue(run.out().contains("./lab " + command), "the help of " + command + " has an example:\n" + run.out());
      }
    }
  }

  @ParameterizedTest(name = "lab {0}")
  @DisplayName("version, -v, -V and --version all print the version")
  @ValueSource(strings = {"version", "-v", "-V", "--version"})
  void versionByEveryUsualName(String option) {
    TinyKit.Run run = kit.lab("", option);
    assertEquals(0, run.status(), option + ": " + run.err());
    assertTrue(run.out().startsWith("Loop Lab "), option + " printed:\n" + run.out() + run.err());
  }

  @Test
  @DisplayName("lab help lists every command and says how to get help on one")
  void helpListsCommands() {
    TinyKit.Run run = kit.lab("", "help");
    assertEquals(0, run.status(), run.err());
    for (String command : new String[] {"list", "check", "hint", "reset", "solution", "grade", "help"}) {
      assertTrue(run.out().contains("  " + command + " "), "lab help should list " + command + ":\n" + run.out());
    }
    assertTrue(run.out().contains("./lab help <command>"), run.out());
  }

  @Test
  @DisplayName("check --debug says on screen that stall detection is off and the time limit is 30 minutes")
  void debugSaysWhatItChanges() {
    // The tiny kit has nothing built, so the grading itself stops at once: only the first line matters here.
    TinyKit.Run run = kit.lab("", "check", "01", "--debug");
    assertTrue(run.out().startsWith("Debug mode: stall detection is off") && run.out().contains("30 minutes"),
        run.out() + run.err());
  }

  @ParameterizedTest(name = "lab hint {0} 1 finds {1}")
  @DisplayName("an exercise can be named by its id, its number or a prefix only it has")
  @CsvSource({"02-blocking-calls, 02-blocking-calls", "02, 02-blocking-calls", "03-ex, 03-execute-blocking",
      "1, 01-first-steps", "first, 01-first-steps", "EXECUTE, 03-execute-blocking"})
  void exerciseByNumberOrPrefix(String name, String id) {
    TinyKit.Run run = kit.lab("", "hint", name, "1");
    assertEquals(0, run.status(), "lab hint " + name + " 1: " + run.err());
    assertTrue(run.out().startsWith("Hint 1 of 3 for " + id + ":"), run.out());
  }

  @ParameterizedTest(name = "lab {0}")
  @DisplayName("a bad input exits with 2 and one line that says what to do")
  @CsvSource(delimiter = '|', value = {
      "hint 0                 | '0' could be 01-first-steps, 02-blocking-calls or 03-execute-blocking",
      "hint blockng-calls     | did you mean 02-blocking-calls?",
      "hint 02-blocking-cals  | did you mean 02-blocking-calls?",
      "hint 99                | the kit's exercises are 01 to 03",
      "check                  | check needs an exercise: ./lab check 02, say, or its id (./lab list shows them; ./lab grade grades them all)",
      "check --all            | check needs an exercise: ./lab check 02, say, or its id (./lab list shows them; ./lab grade grades them all)",
      "check 02 --all         | check grades one exercise (./lab check 02, say); ./lab grade grades them all",
      "hint blcoking-calls    | did you mean 02-blocking-calls?",
      "reset                  | reset needs an exercise: ./lab reset 02, say, or its id (./lab list shows them)",
      "reset 99               | unknown exercise '99'",
      "solution 99            | unknown exercise '99'",
      "solution 02            | once ./lab check 02-blocking-calls gives full marks (not checked yet)",
      "grade --only 7         | unknown exercise '7'",
      "grade --format junit   | --format junit needs --out FILE",
      "grade --out r.xml      | --out needs --format (exercism, gradescope, junit or classroom)",
      "grade --format x --out r.xml | expected one of [exercism, gradescope, junit, classroom]",
      "grade --format junit --out /no/such/dir/r.xml | --out /no/such/dir/r.xml: cannot write there",
      "grade --class /no/such/class | --class /no/such/class: no such folder",
      "grade --class /tmp --solutions | choose one of --solutions, --submission and --class",
      "grade --jobs 2         | --jobs works with --class",
      "grade --class /tmp --jobs 0 | --jobs 0: must be 1 or more",
      "grade --class /tmp --json r.json | --json works with one target",
      "nonsense               | there is no command 'nonsense' (./lab help lists them)",
      "chek 01                | there is no command 'chek'. Did you mean 'check'? (./lab help lists them)",
      "lsit                   | there is no command 'lsit'. Did you mean 'list'? (./lab help lists them)",
      "check 02 --bogus       | unknown option '--bogus' for lab check (try ./lab help check)",
      "check 02 --debg        | unknown option '--debg' for lab check. Did you mean '--debug'? (try ./lab help check)"})
  void badInputGetsOneLine(String line, String says) {
    assertOneLine(line.strip().split(" +"), says);
  }

  @Test
  @DisplayName("grade --class refuses a class folder of the wrong shape, and a report folder it would damage")
  void classFoldersOfTheWrongShape() throws IOException {
    Path empty = Files.createDirectories(dir.resolve("empty-class"));
    Path file = Files.writeString(dir.resolve("class.zip"), "not a folder");
    Path klass = Files.createDirectories(dir.resolve("class/alice"));
    Path other = Files.createDirectories(dir.resolve("holiday-photos"));
    Files.writeString(other.resolve("beach.jpg"), "keep me");
    assertOneLine(new String[] {"grade", "--class", empty.toString()}, "no learner folders in it");
    assertOneLine(new String[] {"grade", "--class", file.toString()}, "not a folder");
    assertOneLine(new String[] {"grade", "--class", klass.getParent().toString(), "--out", file.toString()},
        "is a file; with --class it names the report's folder");
    assertOneLine(new String[] {"grade", "--class", klass.getParent().toString(), "--out", other.toString()},
        "holds something other than a class report");
    assertEquals("keep me", Files.readString(other.resolve("beach.jpg")), "nothing of the folder was touched");
  }

  private static void assertOneLine(String[] args, String says) {
    String line = String.join(" ", args);
    TinyKit.Run run = kit.lab("", args);
    assertEquals(2, run.status(), "exit status of lab " + line + "\n" + run.err());
    assertTrue(run.errLine().startsWith("lab: "), "should start with 'lab: ': " + run.err());
    assertEquals(1, run.errLine().lines().count(), "one line expected:\n" + run.err());
    assertTrue(run.errLine().contains(says), "lab " + line + " should say \"" + says + "\", said: " + run.err());
  }
}
