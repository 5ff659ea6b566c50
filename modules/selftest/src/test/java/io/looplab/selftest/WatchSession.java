package io.looplab.selftest;

import io.looplab.cli.commands.WatchCommand;
import io.looplab.cli.engine.Console;
import io.looplab.cli.engine.Kit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * {@code lab watch} running in a thread of the test, with keys the test types and a screen the test reads: each
 * {@link #awaitOutput} waits, bounded, for text that has not been seen yet, woken by every write.
 */
final class WatchSession implements AutoCloseable {

  private final StringBuilder screen = new StringBuilder();
  private final PipedOutputStream keys = new PipedOutputStream();
  private final Thread thread;
  private int seen;
  private volatile Throwable failure;

  WatchSession(Kit kit, String exercise, boolean timing) throws IOException {
    PipedInputStream keyboard = new PipedInputStream(keys);
    OutputStream out = new OutputStream() {
      private final ByteArrayOutputStream line = new ByteArrayOutputStream();

      @Override
      public void write(int b) {
        synchronized (screen) {
          line.write(b);
          if (b == '\n') {
            screen.append(line.toString(StandardCharsets.UTF_8));
            line.reset();
            screen.notifyAll();
          }
        }
      }
    };
    thread = new Thread(() -> {
      try {
        WatchCommand.watch(kit, kit.find(exercise), new Console(out), keyboard, timing, false);
      } catch (Throwable t) {
        failure = t;
      }
    }, "test-watch");
    thread.setDaemon(true);
    thread.start();
  }

  /** Waits for {@code text} in what watch printed after the last text awaited; returns the lines up to it. */
  String awaitOutput(String text, Duration within) throws InterruptedException {
    long deadline = System.nanoTime() + within.toNanos();
    synchronized (screen) {
      while (true) {
        int at = screen.indexOf(text, seen);
        if (at >= 0) {
          String since = screen.substring(seen, at + text.length());
          seen = at + text.length();
          return since;
        }
        long left = deadline - System.nanoTime();
        if (left <= 0 || failure != null) {
          throw new AssertionError("lab watch did not print \"" + text + "\" within " + within.toSeconds() + " s"
              + (failure == null ? "" : " (it failed: " + failure + ")") + "; it printed since the last step:\n"
              + screen.substring(seen));
        }
        screen.wait(Math.max(1, left / 1_000_000));
      }
    }
  }

  void press(char key) throws IOException {
    keys.write(key);
    keys.flush();
  }

  /** Whether watch has returned within {@code within}. */
  boolean ended(Duration within) throws InterruptedException {
    thread.join(within.toMillis());
    return !thread.isAlive();
  }

  Throwable failure() {
    return failure;
  }

  @Override
  public void close() throws IOException {
    keys.close();
  }
}
