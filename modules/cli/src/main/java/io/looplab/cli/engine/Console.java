package io.looplab.cli.engine;

import io.looplab.grader.internal.scoring.ExerciseReport;
import io.looplab.grader.internal.scoring.TestReport;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Everything the CLI prints: progress while it works, then results a learner can act on. */
public final class Console {

  private final PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
  private final boolean live = System.console() != null && System.getenv("CI") == null;
  private String lastProgress = "";

  public PrintStream out() {
    return out;
  }

  public void line(String text) {
    clearProgress();
    out.println(text);
  }

  /** A line that rewrites itself on a terminal; elsewhere only each new phase is printed. */
  public GradingEngine.Progress progress(int index, int count) {
    return (exercise, doing) -> {
      String text = "  [" + index + "/" + count + "] " + exercise.id() + "  " + doing;
      if (live) {
        out.print("\r\033[K" + text);
        out.flush();
        lastProgress = text;
      } else {
        String phase = doing.startsWith("testing") ? "testing" : doing;
        if (!phase.equals(lastProgress)) {
          out.println(text.replaceAll("testing .*", "testing"));
          lastProgress = phase;
        }
      }
    };
  }

  private void clearProgress() {
    if (live && !lastProgress.isEmpty()) {
      out.print("\r\033[K");
    }
    lastProgress = "";
  }

  public static String mark(boolean ok) {
    return ok ? "✓" : "✗";
  }

  /** One exercise on one line: mark, id, title, score and status. */
  public void exerciseLine(ExerciseReport r) {
    line(String.format("  %s %-24s %-42s %3d/%-3d %s", mark(r.isComplete()), r.id(),
        truncate(r.title(), 42), r.points(), r.max(), r.status()));
  }

  /** Every test of an exercise, with what each failing one says. */
  public void testLines(ExerciseReport r, boolean onlyFailures) {
    if (r.message() != null) {
      line("      " + r.message());
    }
    for (TestReport t : r.tests()) {
      boolean ok = t.passed();
      if (ok && onlyFailures) {
        continue;
      }
      line(String.format("      %s %s  (%d/%d)", mark(ok), t.name(), t.points(), t.max()));
      if (!ok && t.message() != null && !(r.message() != null && t.message().endsWith(r.message()))) {
        wrap(t.message(), "          ");
      }
    }
  }

  private void wrap(String text, String indent) {
    int width = 110;
    for (String paragraph : text.split("\n")) {
      StringBuilder current = new StringBuilder();
      for (String word : paragraph.split(" ")) {
        if (current.length() + word.length() + 1 > width - indent.length() && current.length() > 0) {
          line(indent + current);
          current.setLength(0);
        }
        current.append(current.length() == 0 ? "" : " ").append(word);
      }
      if (current.length() > 0) {
        line(indent + current);
      }
    }
  }

  public static String bar(double fraction, int width) {
    int filled = (int) Math.round(Math.max(0, Math.min(1, fraction)) * width);
    return "[" + "#".repeat(filled) + "-".repeat(width - filled) + "]";
  }

  public static String truncate(String s, int n) {
    return s.length() <= n ? s : s.substring(0, n - 1) + "…";
  }
}
