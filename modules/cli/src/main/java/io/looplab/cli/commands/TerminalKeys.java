package io.looplab.cli.commands;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Single key presses, without Enter: on a terminal, {@code stty} turns line editing off for as long as this is open
 * and puts it back on close (and if the JVM is stopped). Elsewhere (a pipe, a test) each byte read is a key.
 */
final class TerminalKeys implements AutoCloseable {

  private final BlockingQueue<Character> pressed = new LinkedBlockingQueue<>();
  private final String savedMode;
  private final Thread hook;

  private TerminalKeys(InputStream in, String savedMode) {
    this.savedMode = savedMode;
    this.hook = new Thread(this::restore, "lab-terminal-restore");
    if (savedMode != null) {
      Runtime.getRuntime().addShutdownHook(hook);
    }
    Thread reader = new Thread(() -> {
      try {
        int b;
        while ((b = in.read()) >= 0) {
          pressed.add((char) b);
        }
      } catch (IOException e) {
        // no more keys
      }
      pressed.add('\u0004');
    }, "lab-keys");
    reader.setDaemon(true);
    reader.start();
  }

  static TerminalKeys open(InputStream in) {
    String saved = null;
    if (System.console() != null) {
      saved = stty("-g");
      if (saved != null) {
        stty("-icanon -echo min 1");
      }
    }
    return new TerminalKeys(in, saved);
  }

  /** The next key within {@code millis}, or null; end of input reads as Ctrl-D. */
  Character next(long millis) throws InterruptedException {
    return pressed.poll(millis, TimeUnit.MILLISECONDS);
  }

  @Override
  public void close() {
    restore();
    if (savedMode != null) {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // already shutting down: the hook restores the terminal
      }
    }
  }

  private void restore() {
    if (savedMode != null) {
      stty(savedMode);
    }
  }

  private static String stty(String args) {
    try {
      Process p = new ProcessBuilder("sh", "-c", "stty " + args + " < /dev/tty").redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      return p.waitFor() == 0 ? out : null;
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }
}
