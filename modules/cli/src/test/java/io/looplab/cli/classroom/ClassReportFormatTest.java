package io.looplab.cli.classroom;

import io.looplab.cli.engine.Exercise;
import io.looplab.cli.engine.Scoreboard;
import io.looplab.report.ExerciseResult;
import io.looplab.report.TestResult;
import io.looplab.report.TestStatus;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What class.csv and index.html say about a class, from results made up here (no grading). */
class ClassReportFormatTest {

  private static final Exercise ONE = new Exercise("01-one", "One", Path.of("01-one"), 30, List.of(), List.of(), 17);
  private static final Exercise TWO = new Exercise("02-two", "Two", Path.of("02-two"), 30, List.of(), List.of(), 17);

  /** A learner who lost the tests named in {@code lost}, each with the message "lost NAME". */
  private static LearnerResult learner(String name, String... lost) {
    List<ExerciseResult> reports = List.of(exercise(ONE, List.of(lost)), exercise(TWO, List.of(lost)));
    return LearnerResult.graded(name, new Scoreboard(name, reports), 10);
  }

  private static ExerciseResult exercise(Exercise e, List<String> lost) {
    List<TestResult> tests = Stream.of(TestResult.pending(e.id() + "/a", e.id() + " a", 2),
        TestResult.pending(e.id() + "/b", e.id() + " b", 3)).map(t -> lost.contains(t.name())
            ? t.recorded(TestStatus.FAILED, "lost " + t.name()) : t.recorded(TestStatus.PASSED, null)).toList();
    return ExerciseResult.of(e.id(), e.title(), tests);
  }

  private final List<LearnerResult> klass = List.of(
      learner("alice"),
      learner("bob", "01-one a", "02-two b"),
      learner("carol, \"the quoted\"", "02-two b"),
      LearnerResult.notGraded("dave", "not a submission: no such folder", 0));

  @Test
  @DisplayName("class.csv has a row per learner, a column per exercise, the total and max, and quotes odd names")
  void csvHasARowPerLearner() {
    List<String> rows = ClassCsv.render(List.of(ONE, TWO), klass).lines().toList();
    assertEquals(List.of(
        "learner,01-one,02-two,total,max,note,01-one status,02-two status",
        "alice,5,5,10,10,,full-marks,full-marks",
        "bob,3,2,5,10,,partial,partial",
        "\"carol, \"\"the quoted\"\"\",5,2,7,10,,full-marks,partial",
        "dave,,,,,not a submission: no such folder,not-started,not-started"), rows);
  }

  @Test
  @DisplayName("the heat map counts, per test, the graded learners who lost it, and colours by that share")
  void heatMapCountsLosers() {
    ClassPage.Page page = ClassPage.model("t", List.of(ONE, TWO), klass);
    Map<String, Integer> lostBy = page.heat().stream()
        .collect(Collectors.toMap(ClassPage.HeatRow::test, ClassPage.HeatRow::failedBy));
    assertEquals(Map.of("01-one a", 1, "01-one b", 0, "02-two a", 0, "02-two b", 2), lostBy);
    assertEquals(3, page.gradedCount(), "dave was not graded, so the shares are of 3");
    assertEquals(List.of(0, 2, 4), List.of(ClassPage.heatLevel(0, 3), ClassPage.heatLevel(1, 3),
        ClassPage.heatLevel(2, 3)));
    assertEquals("02-two b", page.frequent().get(0).test(), "the message two learners met comes first");
    assertEquals(2, page.frequent().get(0).count());
  }

  @Test
  @DisplayName("index.html escapes what learners' code put in messages and names, and links each cell to a learner")
  void pageEscapesLearnersText() {
    LearnerResult hostile = LearnerResult.graded("<b>eve</b>", new Scoreboard("eve", List.of(
        exercise(ONE, List.of("01-one a")), exercise(TWO, List.of()))), 1);
    String html = ClassPage.render("class", List.of(ONE, TWO), List.of(hostile, learner("alice")));
    assertFalse(html.contains("<b>eve</b>"), "a learner's folder name must not become markup");
    assertTrue(html.contains("&lt;b&gt;eve&lt;/b&gt;"), html);
    assertTrue(html.contains("data-test=\"01-one a\" data-failed-by=\"1\""), html);
    assertTrue(html.contains("<details id=\"learner-1\"") && html.contains("href=\"#learner-1\""), html);
    assertTrue(html.contains("lost 01-one a"), "the learner's own message is in their section");
  }
}
