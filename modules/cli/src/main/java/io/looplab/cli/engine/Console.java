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
 * way with {@code -Dpicocli.ansi=true|false}. On a terminal everything fits its width ({@link TerminalWidth}): the
 * progress line is clipped, messages are wrapped at spaces, tables give their titles less room; to a pipe or a file
 * lines stay whole, for tools that read them.
 */
public final class Console {

  /** The width of the id column: the longest id in the curriculum, 05-promises-and-composition. */
  public static final int ID_WIDTH = 27;

  /** The room an exercise line keeps for its score and status: " 24/24  compile-error". */
  public static final int EXERCISE_LINE_RESERVE = 21;

  /** The most room a title takes in a table that no terminal limits (a pipe, a file). */
  private static final int TITLE_WIDTH_UNLIMITED = 52;
  /** A title column narrower than this says too little: the row goes without it. */
  private static final int TITLE_WIDTH_MIN = 8;

  private final PrintStream out;
  private final boolean live;
  private final Ansi ansi;
  private final int width;
  private String lastProgress = "";

  /**
   * The console of the command running on this thread, when it runs for someone else's terminal (a check server's
   * client: see {@link #within}); empty for a command run from a terminal of its own.
   */
  private static final ThreadLocal<Console> LENT = new ThreadLocal<>();

  /** Where the command running on this thread prints: the terminal it was lent, or this process's own. */
  public static Console current() {
    Console lent = LENT.get();
    return lent != null ? lent : new Console();
  }

  /**
   * Runs {@code command} with {@code console} as its {@link #current()} one: the check server runs a client's
   * command this way, one at a time, so that it prints to that client's terminal as the client's own JVM would.
   */
  public static <T> T within(Console console, java.util.function.Supplier<T> command) {
    LENT.set(console);
    try {
      return command.get();
    } finally {
      LENT.remove();
    }
  }

  /** Whether it prints in colour: picocli's help for a lent terminal then does too. */
  public boolean colour() {
    return ansi == Ansi.ON;
  }

  /** Standard output, live and in colour when it is a terminal, and as wide as it is. */
  public Console() {
    this(System.out, colours(), System.console() != null && Settings.CI.raw().isEmpty(),
        System.console() != null ? TerminalWidth.ofThisTerminal() : TextLayout.UNLIMITED);
  }

  /**
   * Text to {@code out}, as a terminal of the given kind and width ({@link TextLayout#UNLIMITED} for none) would show
   * it: for the check server's clients.
   */
  public static Console of(OutputStream out, boolean terminal, boolean colour, int width) {
    return new Console(out, colour ? Ansi.ON : Ansi.OFF, terminal, width);
  }

  /** Plain text to {@code out}, one line per progress phase: for a test that reads what a command says. */
  public Console(OutputStream out) {
    this(out, Ansi.OFF, false, TextLayout.UNLIMITED);
  }

  Console(Ansi ansi) {
    this(System.out, ansi, false, TextLayout.UNLIMITED);
  }

  Console(OutputStream out, Ansi ansi, boolean live, int width) {
    this.out = new PrintStream(out, true, StandardCharsets.UTF_8);
    this.ansi = ansi;
    this.live = live;
    this.width = width;
  }

  /** The columns a line may take, or {@link TextLayout#UNLIMITED}. */
  public int width() {
    return width;
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

  /**
   * One line; on a terminal, one too wide goes on over more lines, broken at spaces, two columns further in than
   * it starts.
   */
  public void line(String text) {
    clearProgress();
    if (width == TextLayout.UNLIMITED || (TextLayout.visibleLength(text) <= width && text.indexOf('\n') < 0)) {
      out.println(text);
      return;
    }
    String indent = text.substring(0, text.length() - text.stripLeading().length());
    TextLayout.wrap(text.stripLeading(), width, indent, indent + "  ").forEach(out::println);
  }

  /** A line that rewrites itself on a terminal; elsewhere only each new phase is printed. */
  public GradingEngine.Progress progress(int index, int count) {
    return (exercise, doing) -> {
      String text = "  [" + index + "/" + count + "] " + exercise.id() + "  " + doing;
      if (live) {
        // One column short of the width: a line that fills the last column makes some terminals wrap at once, and
        // each update after it would leave a line behind.
        int room = width == TextLayout.UNLIMITED ? TextLayout.UNLIMITED : Math.max(1, width - 1);
        out.print("\r\033[K" + TextLayout.clip(text, room));
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

  /**
   * The room for the titles of a table of exercises: the longest title, as much of it as fits beside the id and
   * {@code reserve} columns for what follows it (or {@value #TITLE_WIDTH_UNLIMITED} when no terminal limits it);
   * 0 when the terminal is too narrow for a useful title.
   */
  public int titleWidth(int longestTitle, int reserve) {
    int room = width == TextLayout.UNLIMITED ? TITLE_WIDTH_UNLIMITED : width - rowPrefixWidth() - 1 - reserve;
    int titleWidth = Math.min(longestTitle, room);
    return titleWidth < TITLE_WIDTH_MIN ? 0 : titleWidth;
  }

  /**
   * A row of a table of exercises: mark, id, the title in {@code titleWidth} columns (see {@link #titleWidth}), then
   * {@code rest}. When {@code rest} is longer than the room kept for it, this row's title gives way, so that the row
   * still fits the terminal.
   */
  public String row(String mark, String id, String title, int titleWidth, String rest) {
    int room = titleWidth;
    if (width != TextLayout.UNLIMITED) {
      room = Math.min(room, width - rowPrefixWidth() - 1 - TextLayout.visibleLength(rest));
    }
    String prefix = String.format("  %s %-" + ID_WIDTH + "s ", mark, id);
    if (room < TITLE_WIDTH_MIN) {
      return prefix + rest;
    }
    return prefix + String.format("%-" + room + "s", TextLayout.clip(title, room)) + " " + rest;
  }

  /** "  ✓ " and the id column, and the space after it. */
  private static int rowPrefixWidth() {
    return 4 + ID_WIDTH + 1;
  }

  /** One exercise on one line: mark, id, title, score and status. */
  public void exerciseLine(ExerciseResult r, int titleWidth) {
    String points = String.format("%3d/%-3d", r.points(), r.max());
    boolean notGraded = r.status() == ExerciseStatus.ERROR;
    String rest = styled(r.isComplete() ? "green" : notGraded || r.points() > 0 ? "yellow" : "red", points) + " "
        + (notGraded ? "error: not graded" : r.status());
    line(row(notGraded ? styled("yellow", "?") : mark(r.isComplete()), r.id(), r.title(), titleWidth, rest));
  }

  /** Every test of an exercise, with what each failing one says. */
  public void testLines(ExerciseResult r, boolean onlyFailures) {
    if (r.message() != null) {
      wrap(r.message(), "      ");
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
    clearProgress();
    TextLayout.wrap(text, width, indent).forEach(out::println);
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
}
