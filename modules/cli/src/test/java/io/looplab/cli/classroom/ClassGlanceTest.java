package io.looplab.cli.classroom;

import io.looplab.report.Standing;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.looplab.cli.classroom.EveryStanding.EXERCISES;
import static io.looplab.cli.classroom.EveryStanding.ONE;
import static io.looplab.cli.classroom.EveryStanding.TWO;
import static io.looplab.cli.classroom.EveryStanding.nameOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The glance of a class report: the grid, the summary, the not-started, the frequent failing tests, the projector. */
class ClassGlanceTest {

  private final List<LearnerResult> klass = EveryStanding.klass();

  @Test
  @DisplayName("the grid has a cell per exercise and learner, in the class's order, each of the learner's standing")
  void gridCellsAreStandings() {
    ClassPage.Page page = ClassPage.model("t", EXERCISES, klass);
    assertEquals(List.of(ONE.id(), TWO.id()), page.grid().stream().map(ClassPage.GridRow::exercise).toList());
    List<String> one = page.grid().get(0).cells().stream().map(ClassPage.GridCell::standing).toList();
    assertEquals(Arrays.stream(Standing.values()).map(Standing::word).toList(), one,
        "each learner of the made-up class stands differently on 01-one");
    List<String> two = page.grid().get(1).cells().stream().map(ClassPage.GridCell::standing).toList();
    assertEquals("not-started", two.get(0), "the stub's learner has not started 02-two either");
    assertTrue(two.subList(1, two.size()).stream().allMatch("full-marks"::equals), two.toString());
  }

  @Test
  @DisplayName("every standing has a symbol of its own, so that the grid reads without its colours")
  void symbolsAreDistinct() {
    Set<String> symbols = new HashSet<>();
    for (Standing s : Standing.values()) {
      assertTrue(symbols.add(s.symbol()), "two standings share " + s.symbol());
      assertFalse(s.symbol().isBlank(), s.word());
    }
  }

  @Test
  @DisplayName("index.html shows the grid before any detail, each cell's symbol and class in it, the legend in words")
  void gridComesFirstWithSymbols() {
    String html = ClassPage.render("class", EXERCISES, klass);
    int grid = html.indexOf("<table class=\"glance\"");
    assertTrue(grid > 0, html);
    for (String detail : List.of("class=\"summary\"", "class=\"frequent\"", "class=\"heat-map\"", "<details")) {
      assertTrue(html.indexOf(detail) > grid, detail + " should come after the grid");
    }
    for (Standing s : Standing.values()) {
      assertTrue(html.contains("<td class=\"standing " + s.word() + "\" data-standing=\"" + s.word() + "\">"),
          "a " + s.word() + " cell: " + html);
      assertTrue(html.contains("<li class=\"" + s.word() + "\"><span class=\"symbol\">" + s.symbol()
          + "</span> " + s.inWords() + "</li>"), "the legend says " + s.inWords());
    }
    Matcher cell = Pattern.compile("data-standing=\"partial\"><a [^>]*><span class=\"symbol\">([^<]+)</span>"
        + "<span class=\"score\">([^<]*)</span>").matcher(html);
    assertTrue(cell.find(), html);
    assertEquals(List.of(Standing.PARTIAL.symbol(), "2/5"), List.of(cell.group(1), cell.group(2)),
        "the partial cell shows its symbol and score in the page, not in a tooltip");
  }

  @Test
  @DisplayName("the summary counts, per exercise, full marks, partial, failing, not started and errors by kind")
  void summaryCounts() {
    ClassPage.ExerciseRow one = ClassPage.model("t", EXERCISES, klass).scores().get(0);
    assertEquals(List.of(1, 1, 1, 1, 4), List.of(one.fullMarks(), one.partial(), one.failing(), one.notStarted(),
        one.errors()));
    assertEquals("1 compile error, 1 crashed, 1 timed out, 1 grader error", one.errorWords());
    ClassPage.ExerciseRow two = ClassPage.model("t", EXERCISES, klass).scores().get(1);
    assertEquals(List.of(7, 0, 0, 1, 0), List.of(two.fullMarks(), two.partial(), two.failing(), two.notStarted(),
        two.errors()));
    assertEquals("5.0", two.average(), "the average is of those who started: the stub's 0 is not in it");
  }

  @Test
  @DisplayName("an untouched stub is listed apart as not started, and its failures count in no frequent failing test")
  void untouchedStubsAreSetApart() {
    ClassPage.Page page = ClassPage.model("t", EXERCISES, klass);
    assertEquals(List.of(ONE.id() + ": " + nameOf(Standing.NOT_STARTED), TWO.id() + ": " + nameOf(Standing.NOT_STARTED)),
        page.notStarted().stream().map(n -> n.exercise() + ": " + n.who()).toList());
    assertTrue(page.frequent().stream().noneMatch(f -> f.learners().contains(nameOf(Standing.NOT_STARTED))),
        page.frequent().toString());
    assertTrue(page.frequent().stream().noneMatch(f -> f.exercise().equals(TWO.id())),
        "on 02-two only the stub failed, so nothing of it is frequent: " + page.frequent());
  }

  @Test
  @DisplayName("the frequent failing tests count only learners who started, compiled and were graded, most first")
  void frequentFailingTests() {
    ClassPage.Page page = ClassPage.model("t", EXERCISES, klass);
    ClassPage.Frequent first = page.frequent().get(0);
    assertEquals("01-one b", first.test());
    assertEquals(List.of(nameOf(Standing.FAILING), nameOf(Standing.PARTIAL), nameOf(Standing.CRASHED)),
        first.learners(), "b is lost by the failing, partial and crashed learners (the timed-out one never ran it: "
        + "skipped); the compile error and the grader's error are counted in the summary instead");
    ClassPage.Frequent second = page.frequent().get(1);
    assertEquals("01-one a", second.test());
    assertEquals(List.of(nameOf(Standing.FAILING), nameOf(Standing.TIMED_OUT)), second.learners());
    assertEquals(2, page.frequent().size(), page.frequent().toString());
  }

  @Test
  @DisplayName("the projector's page has the grid and the counts with learners as numbers, and no name or message")
  void projectorHasNoNames() {
    String html = ClassPage.renderProjector("class", EXERCISES, klass, klass.size());
    for (LearnerResult r : klass) {
      assertFalse(html.contains(r.learner()), r.learner() + " is on the projector");
    }
    assertFalse(html.contains("lost b"), "no failure message on the projector");
    for (int i = 1; i <= klass.size(); i++) {
      assertTrue(html.contains("<th scope=\"col\">#" + i + "</th>"), "learner #" + i);
    }
    assertTrue(html.contains("data-standing=\"compile-error\"><span class=\"symbol\">C</span><span class=\"score\">"
        + "compile error</span>"), html);
    assertTrue(html.contains("class=\"summary\""), html);
  }

  @Test
  @DisplayName("a report of part of the class says how many of how many are graded; a whole one does not")
  void partialReportSaysSo() {
    String partial = ClassPage.render("class", EXERCISES, klass.subList(0, 3), 12);
    assertTrue(partial.contains("<strong>3 of 12 graded</strong>"), partial);
    String whole = ClassPage.render("class", EXERCISES, klass, klass.size());
    assertFalse(whole.contains("partial-run\""), "no partial note on a whole report");
    assertTrue(ClassPage.renderProjector("class", EXERCISES, klass.subList(0, 3), 12).contains("3 of 12 learners "
        + "graded so far"));
  }

  @Test
  @DisplayName("class.csv keeps its columns in place and adds a status column per exercise with the standing's word")
  void csvStatusColumns() {
    List<String> rows = ClassCsv.render(EXERCISES, klass).lines().toList();
    assertEquals("learner,01-one,02-two,total,max,note,01-one status,02-two status", rows.get(0));
    assertEquals(nameOf(Standing.PARTIAL) + ",2,5,7,10,,partial,full-marks", rows.get(3));
    assertEquals(nameOf(Standing.NOT_STARTED) + ",0,0,0,10,,not-started,not-started", rows.get(1));
    assertTrue(rows.get(8).startsWith(nameOf(Standing.GRADER_ERROR) + ",error,5,5,10,not graded (no point lost"),
        rows.get(8));
    assertTrue(rows.get(8).endsWith(",grader-error,full-marks"), rows.get(8));
    List<String> statuses = rows.subList(1, rows.size()).stream().map(r -> r.split(",")).map(f -> f[f.length - 2])
        .toList();
    assertEquals(Arrays.stream(Standing.values()).map(Standing::word).toList(), statuses);
  }
}
