package io.looplab.cli;

import io.looplab.cli.engine.Console;
import io.looplab.cli.engine.Exercise;
import io.looplab.cli.engine.GradingEngine;

import java.nio.file.Path;
import java.util.List;

/**
 * What a grading prints, without a grading: progress updates with long test names, the line that stays, a long
 * message and a row, through the CLI's own {@link Console} as it finds the terminal. {@link TerminalOutputTest}
 * runs it on a pseudo-terminal of a chosen width, and to a pipe.
 */
public final class OnATerminal {

  static final String HEADER = "01-event-loop-threads: The event loop: which thread runs your code";
  static final String MESSAGE = "ada's dashboard should answer 200, but it answered 502: The user directory failed: "
      + "TODO: turn the directory's CompletionStage into a Future that delivers on this verticle's context "
      + "(DashboardVerticle.onThisContext) (the test answered: ada's profile lookup). (checked at "
      + "WhichThreadTest.java:54)";
  static final String TITLE = "One owner for the state, a worker for the legacy client, request-reply with a timeout";

  private OnATerminal() {
  }

  public static void main(String[] args) {
    Console console = new Console();
    Exercise exercise = new Exercise("04-single-owner", TITLE, Path.of("."), 90, List.of(), List.of(), 17);
    GradingEngine.Progress progress = console.progress(4, 14);
    progress.update(exercise, "compiling");
    for (int i = 1; i <= 9; i++) {
      progress.update(exercise, "testing " + i + "/9: once the directory has answered on its own thread, the "
          + "answer is written on the verticle's event loop (case " + i + ")");
    }
    console.line(HEADER);
    console.wrapped(MESSAGE, "          ");
    console.line(console.row("·", exercise.id(), TITLE, console.titleWidth(TITLE.length(), 15), "not checked yet"));
    console.line("width: " + console.width());
  }
}
