package io.looplab.cli.formats;

import io.looplab.cli.engine.Scoreboard;

import java.util.function.Function;

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

  private final Function<Scoreboard, String> renderer;

  ResultFormat(Function<Scoreboard, String> renderer) {
    this.renderer = renderer;
  }

  public String render(Scoreboard board) {
    return renderer.apply(board);
  }
}
