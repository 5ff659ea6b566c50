package io.looplab.selftest;

import io.looplab.cli.engine.Exercise;
import io.looplab.cli.engine.Kit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

/**
 * What the READMEs promise a learner about the kit: the exercise table's "ready" rows are the exercises that exist,
 * a "Next:" pointer never sends anyone to an exercise that does not, and every exercise names the alternative
 * designs that the self-test proves get full marks.
 */
class ExerciseDocsTest {

  private static final Kit kit = Kit.locate();
  /** A row of the root README's exercise table: | id | what you learn | status |. */
  private static final Pattern TABLE_ROW = Pattern.compile("(?m)^\\| (\\d\\d-[a-z0-9-]+) \\|.*\\| (\\w+) \\|$");
  private static final Pattern NEXT = Pattern.compile("Next: `(\\d\\d-[a-z0-9-]+)`");
  private static final String OTHER_WAYS = "## After full marks: other ways to solve it";
  private static final Pattern FENCED = Pattern.compile("(?s)\n```[a-z]*\n(.*?)\n```");
  /** A fenced block that is a command to type, not output to quote. */
  private static final Pattern COMMAND = Pattern.compile("(\\./lab|git|cp|for|mvn|\\$) ");

  @Test
  @DisplayName("the README's exercise table says \"ready\" for exactly the exercises the kit has")
  void tableSaysReadyForEveryExercise() throws IOException {
    Matcher rows = TABLE_ROW.matcher(Files.readString(kit.root().resolve("README.md")));
    Set<String> ready = new TreeSet<>();
    while (rows.find()) {
      if (rows.group(2).equals("ready")) {
        ready.add(rows.group(1));
      }
    }
    assertEquals(ids(), ready, "README.md's exercise table: the rows marked ready should be the folders in exercises/");
  }

  @TestFactory
  @DisplayName("the instructor's guide has a section on every exercise, and quotes its README's real output word "
      + "for word")
  Stream<DynamicTest> instructorGuideCoversEveryExercise() throws IOException {
    String guide = Files.readString(kit.root().resolve("docs/instructor-guide.md"));
    return kit.exercises().stream().map(e -> dynamicTest(e.id(), () -> {
      int start = guide.indexOf("\n### " + e.id() + "\n");
      assertTrue(start >= 0, "docs/instructor-guide.md has no section \"### " + e.id() + "\"");
      Matcher end = Pattern.compile("\n##+ ").matcher(guide);
      String section = guide.substring(start + 1, end.find(start + 5) ? end.start() : guide.length());
      Matcher block = FENCED.matcher(section);
      // Compared line by line without indentation: a README may quote inside a list item, indented.
      String readme = unindented(readme(e));
      while (block.find()) {
        String quoted = unindented(block.group(1));
        if (!COMMAND.matcher(quoted).lookingAt()) {
          assertTrue(readme.contains(quoted), "the guide's section on " + e.id() + " quotes output that its README "
              + "does not show (a README changed, or the quote was edited): " + quoted.lines().findFirst().orElse(""));
        }
      }
    }));
  }

  private static String unindented(String text) {
    return text.lines().map(String::strip).collect(Collectors.joining("\n"));
  }

  @TestFactory
  @DisplayName("an exercise's README names as next only an exercise that exists")
  Stream<DynamicTest> nextIsAnExerciseThatExists() {
    return kit.exercises().stream().map(e -> dynamicTest(e.id(), () -> {
      Matcher next = NEXT.matcher(readme(e));
      while (next.find()) {
        assertTrue(ids().contains(next.group(1)), e.id() + "'s README says \"Next: " + next.group(1)
            + "\", which is not an exercise of the kit yet");
      }
    }));
  }

  @TestFactory
  @DisplayName("an exercise's README names each of its alternatives under \"After full marks: other ways to solve it\"")
  Stream<DynamicTest> readmeNamesEveryAlternative() {
    return kit.exercises().stream().map(e -> dynamicTest(e.id(), () -> {
      String readme = readme(e);
      int section = readme.indexOf(OTHER_WAYS);
      assertTrue(section >= 0, e.id() + "'s README has no section \"" + OTHER_WAYS + "\"");
      String ways = readme.substring(section);
      for (Variant alternative : Variant.of(kit.root().resolve("solutions").resolve(e.id()),
          Variant.Kind.ALTERNATIVE)) {
        assertTrue(ways.contains("`" + alternative.name() + "`"), e.id() + "'s README does not name the alternative `"
            + alternative.name() + "` under \"" + OTHER_WAYS + "\"");
      }
    }));
  }

  private static Set<String> ids() {
    return kit.exercises().stream().map(Exercise::id).collect(Collectors.toCollection(TreeSet::new));
  }

  private static String readme(Exercise e) throws IOException {
    return Files.readString(e.dir().resolve("README.md"));
  }
}
