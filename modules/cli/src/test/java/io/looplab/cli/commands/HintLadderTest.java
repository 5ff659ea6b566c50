package io.looplab.cli.commands;

import io.looplab.cli.TinyKit;
import io.looplab.cli.engine.Kit;
import io.looplab.cli.engine.Results;
import io.looplab.report.ExerciseResult;
import io.looplab.report.TestResult;
import io.looplab.report.TestStatus;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The hint ladder: one rung at a time, a peek never moves it, and the last hint's words fit where the learner is. */
class HintLadderTest {

  @TempDir
  Path dir;
  TinyKit kit;

  @BeforeEach
  void makeKit() throws IOException {
    kit = TinyKit.create(dir);
  }

  @Test
  @DisplayName("plain hints climb one at a time: 1, 2, 3, then 3 again")
  void plainHintsClimb() {
    for (int expected : new int[] {1, 2, 3, 3}) {
      String shown = hint("02");
      assertTrue(shown.startsWith("Hint " + expected + " of 3 for 02-blocking-calls:"), shown);
    }
  }

  @Test
  @DisplayName("peeking at hint 3 after hint 1 leaves the ladder at 1: the next plain hint is 2")
  void peekDoesNotMoveTheLadder() {
    hint("02");
    String peek = hint("02", "3");
    assertTrue(peek.startsWith("Hint 3 of 3"), peek);
    String next = hint("02");
    assertTrue(next.startsWith("Hint 2 of 3"), "after hint 1 and a peek at 3, the next plain hint: " + next);
  }

  @Test
  @DisplayName("after a peek, the way to the next hint is named by its number")
  void afterAPeekTheNextHintIsNamed() {
    String peek = hint("02", "2");
    assertTrue(peek.contains("./lab hint 02-blocking-calls 3 shows hint 3."), peek);
  }

  @Test
  @DisplayName("the last hint before full marks points to the solution once full marks come; after, it says they have come")
  void lastHintFitsTheState() {
    String before = hint("02", "3");
    assertTrue(before.contains("Once you have full marks, ./lab solution 02-blocking-calls"), before);
    TestResult test = TestResult.pending("t", "the one test", 5).recorded(TestStatus.PASSED, null);
    new Results(Kit.at(kit.root())).save(ExerciseResult.of("02-blocking-calls", "Exercise 02", List.of(test)));
    String after = hint("02", "3");
    assertFalse(after.contains("Once you have full marks"), after);
    assertTrue(after.contains("You have full marks already: ./lab solution 02-blocking-calls"), after);
  }

  @ParameterizedTest(name = "lab hint 02 {0}")
  @DisplayName("a hint number that does not exist gets one line naming the ones that do")
  @ValueSource(strings = {"two", "0", "4", "-1"})
  void noSuchHint(String number) {
    TinyKit.Run run = kit.lab("", "hint", "02", number);
    assertEquals(2, run.status(), run.err());
    assertEquals("lab: there is no hint '" + number + "' for 02-blocking-calls: its hints are 1 to 3 "
        + "(./lab hint 02-blocking-calls gives the next one)", run.errLine().strip());
  }

  private String hint(String... args) {
    String[] all = new String[args.length + 1];
    all[0] = "hint";
    System.arraycopy(args, 0, all, 1, args.length);
    TinyKit.Run run = kit.lab("", all);
    assertEquals(0, run.status(), String.join(" ", all) + ": " + run.err());
    return run.out();
  }
}
