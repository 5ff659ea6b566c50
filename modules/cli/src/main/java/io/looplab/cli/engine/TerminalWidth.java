package io.looplab.cli.engine;

import io.looplab.grader.internal.settings.Settings;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * How wide the terminal is, without a native library: the {@code COLUMNS} variable when it is set, else what
 * {@code stty size} says of {@code /dev/tty}, else {@value #FALLBACK} columns. The check server learns the same two
 * answers from its client (the lab script asks them on the learner's terminal) and decides with the same rule.
 */
public final class TerminalWidth {

  /** The width of a terminal that does not say. */
  public static final int FALLBACK = 80;

  /** How long stty may take: it answers at once on a terminal, and a machine too busy for that gets the fallback. */
  private static final long STTY_LIMIT_MS = 2_000;

  private TerminalWidth() {
  }

  /** The width of the terminal this JVM writes to. */
  public static int ofThisTerminal() {
    return decide(Settings.COLUMNS.raw().orElse(null), askStty().orElse(null));
  }

  /**
   * The rule: a positive {@code COLUMNS} wins, then the second number of stty's "rows columns", then the fallback.
   * Either answer may be missing ({@code null}) or not a number.
   */
  public static int decide(String columns, String sttySize) {
    int fromVariable = positive(columns);
    if (fromVariable > 0) {
      return fromVariable;
    }
    if (sttySize != null) {
      String[] rowsAndColumns = sttySize.trim().split("\\s+");
      int fromStty = rowsAndColumns.length == 2 ? positive(rowsAndColumns[1]) : 0;
      if (fromStty > 0) {
        return fromStty;
      }
    }
    return FALLBACK;
  }

  private static int positive(String number) {
    try {
      return number == null ? 0 : Math.max(0, Integer.parseInt(number.trim()));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /** stty's answer for the controlling terminal, or empty when there is none or it does not answer in time. */
  private static Optional<String> askStty() {
    File tty = new File("/dev/tty");
    if (!tty.exists()) {
      return Optional.empty();
    }
    Process stty = null;
    try {
      stty = new ProcessBuilder("stty", "size").redirectInput(tty)
          .redirectError(ProcessBuilder.Redirect.DISCARD).start();
      if (!stty.waitFor(STTY_LIMIT_MS, TimeUnit.MILLISECONDS)) {
        return Optional.empty();
      }
      // "rows columns\n": a dozen bytes, all there once stty has ended.
      return stty.exitValue() == 0
          ? Optional.of(new String(stty.getInputStream().readAllBytes(), StandardCharsets.US_ASCII))
          : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();                              // no stty here, or no controlling terminal
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    } finally {
      if (stty != null) {
        stty.destroy();
      }
    }
  }
}
