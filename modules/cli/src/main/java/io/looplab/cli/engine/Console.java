package io.looplab.cli.engine;

import io.looplab.grader.internal.settings.Settings;

import io.looplab.report.ExerciseResult;
import io.looplab.report.ExerciseStatus;
import io.looplab.report.TestResult;

import picocli.CommandLine.Help.Ansi;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Everything the CLI prints: progress while it works, then results a learner can act on. Colour comes from
 * picocli's ANSI support: on a terminal only, never when {@code NO_COLOR} is set (no-color.org), and forced either
 * way with {@code -Dpicocli.ansi=true|false}.
 */
public final class Console {

  /** The width of the id column: the longest id in the curriculum, 05-promises-and-composition. */
  public static final int ID_WIDTH = 27;

  private final PrintStream out;
  private final boolean live;
  private final Ansi ansi;
  private String lastProgress = "";

  /** Standard output, live and in colour when it is a terminal. */
  public Console() {
    this(System.out, colours(), System.console() != null && Settings.CI.raw().isEmpty());
  }

  /** Text to {@code out}, as a terminal of the given kind would show it: for the check server's clients. */
  public static Console of(OutputStream out, boolean terminal, boolean colour) {
    return new Console(out, colour ? Ansi.ON : Ansi.OFF, terminal);
  }

  /** Plain text to {@code out}, one line per progress phase: for a test that reads what a command says. */
  public Console(OutputStream out) {
    this(out, Ansi.OFF, false);
  }

  Console(Ansi ansi) {
    this(System.out, ansi, false);
  }

  private Console(OutputStream out, Ansi ansi, boolean live) {
    this.out = new PrintStream(out, true, StandardCharsets.UTF_8);
    this.ansi = ansi;
    this.live = live;
  }

  private static Ansi colours() {
    return colours(Settings.ANSI.raw().orElse(null), Settings.NO_COLOR.raw().orElse(null), Ansi.AUTO.enabled());
  }

  /** Colour or not: a forced choice wins, then a non-empty NO_COLOR, then picocli's terminal detection. */
  static Ansi colours(String forced, String noColor, boolean terminalSupportsIt) {
    if ("true".equalsIgnoreCase(forced) || "false".equalsIgnoreCase(forced)) {
      return Boolean.parseBoolean(forced) ? Ansi.ON : Ansi.OFF;
    }
    if (noColor != null && !noColor.isEmpty()) {
      return Ansi.OFF;
    }
    return terminalSupportsIt ? Ansi.ON : Ansi.OFF;
  }

  /** Text in a picocli style ("green", "red", "bold", "faint"), or as it is when colour is off. */
  public String styled(String style, String text) {
    return ansi == Ansi.ON ? ansi.string("@|" + style + " " + text.replace("|@", "| @") + "|@") : text;
  }

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

  /** ✓ in green or ✗ in red. */
  public String mark(boolean ok) {
    return ok ? styled("green", "✓") : styled("red", "✗");
  }

  /** "points/max", green at full marks, red at none, yellow between. */
  public String score(int points, int max) {
    String text = points + "/" + max;
    return styled(points >= max ? "green" : points == 0 ? "red" : "yellow", text);
  }

  /** One exercise on one line: mark, id, title, score and status. */
  public void exerciseLine(ExerciseResult r) {
    String points = String.format("%3d/%-3d", r.points(), r.max());
    boolean notGraded = r.status() == ExerciseStatus.ERROR;
    line(String.format("  %s %-" + ID_WIDTH + "s %-42s %s %s", notGraded ? styled("yellow", "?") : mark(r.isComplete()),
        r.id(), truncate(r.title(), 42), styled(r.isComplete() ? "green" : notGraded || r.points() > 0 ? "yellow"
            : "red", points), notGraded ? "error: not graded (see why below; no point lost)" : r.status()));
  }

  /** Every test of an exercise, with what each failing one says. */
  public void testLines(ExerciseResult r, boolean onlyFailures) {
    if (r.message() != null) {
      line("      " + r.message());
    }
    if (r.status() == ExerciseStatus.COMPILE_ERROR) {
      // No test ran: one line, so that the compiler's message is not buried under a ✗ per test.
      line("      · none of its " + r.tests().size() + " tests ran  (" + score(r.points(), r.max()) + ")");
      return;
    }
    for (TestResult t : r.tests()) {
      boolean ok = t.passed();
      if (ok && onlyFailures) {
        continue;
      }
      if (t.notGraded()) {
        // not the learner's lost point: no ✗, and its reason is the grader's
        line("      " + styled("yellow", "?") + " " + t.name() + "  (not graded)");
        if (!(r.message() != null && r.message().startsWith(t.message()))) {
          wrap(t.message(), "          ");
        }
        continue;
      }
      line("      " + mark(ok) + " " + t.name() + "  (" + score(t.points(), t.max()) + ")");
      if (!ok && t.message() != null && !(r.message() != null && t.message().endsWith(r.message()))) {
        wrap(t.message(), "          ");
      }
    }
  }

  /** A long text wrapped to the width of the report, each line indented. */
  public void wrapped(String text, String indent) {
    wrap(text, indent);
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

  /**
   * The grade's last line, {@code "Total 24/429 [##----] 5.6%"}: the points, a bar, and the share as a percentage,
   * which a CI server can read from the log (GitLab's {@code coverage:} pattern in README does).
   */
  public String totalLine(int points, int max) {
    if (max == 0) {
      return "Total " + score(points, max);
    }
    return "Total " + score(points, max) + " " + bar((double) points / max, 30) + " "
        + String.format(Locale.ROOT, "%.1f%%", 100.0 * points / max);
  }

  /** A progress bar of {@code width} cells, the done part in green. */
  public String bar(double fraction, int width) {
    int filled = (int) Math.round(Math.max(0, Math.min(1, fraction)) * width);
    return "[" + (filled == 0 ? "" : styled("green", "#".repeat(filled))) + "-".repeat(width - filled) + "]";
  }

  public static String truncate(String s, int n) {
    return s.length() <= n ? s : s.substring(0, n - 1) + "…";
  }
}
