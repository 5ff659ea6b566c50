package io.looplab.cli.formats;

import io.looplab.cli.engine.Scoreboard;

import java.util.function.BiFunction;

/**
 * The report in another tool's format, for platforms that already know how to show test results: Exercism's test
 * runner, Gradescope's autograder, JUnit XML (what Maven Surefire writes, which CI servers read) and GitHub
 * Classroom's grading reporter.
 */
public enum ResultFormat {
  exercism(ExercismResults::render),
  gradescope(GradescopeResults::render),
  junit(JUnitXml::render),
  classroom(ClassroomResults::render);

  private final BiFunction<Scoreboard, ExportOptions, String> renderer;

  ResultFormat(BiFunction<Scoreboard, ExportOptions, String> renderer) {
    this.renderer = renderer;
  }

  /** The report with no kit at hand: exercises numbered in the board's order, visible, tests by name only. */
  public String render(Scoreboard board) {
    return render(board, ExportOptions.none(board.exercises().stream().map(e -> e.id()).toList()));
  }

  public String render(Scoreboard board, ExportOptions options) {
    return renderer.apply(board, options);
  }
}
