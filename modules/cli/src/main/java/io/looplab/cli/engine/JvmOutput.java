package io.looplab.cli.engine;

import io.looplab.grader.internal.scoring.VerdictFormat;
import io.looplab.grader.internal.scoring.VerdictStream;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads a grading JVM's output to its end: each line that claims to be part of the verdict goes to the JVM's
 * {@link VerdictStream}, everything else (what the code and the tests printed) to the log, which stops growing at a
 * cap. A record's line starts with a newline of its own (so that it starts a line even after a half-printed one):
 * that empty line is dropped with it, and the log reads as if the records were never there.
 */
final class JvmOutput {

  /** A record's line is about 3 KiB; one longer than this is not the grader's and is cut before it is judged. */
  private static final int MAX_RECORD_LINE = 8 * 1024;
  private static final byte[] MARK = VerdictFormat.MARK.getBytes(StandardCharsets.US_ASCII);

  private enum State { DECIDING, RECORD, PASS }

  private final OutputStream log;
  private final long cap;
  private final VerdictStream verdicts;
  private final ByteArrayOutputStream line = new ByteArrayOutputStream();
  private State state = State.DECIDING;
  private boolean blankLineHeld;
  private long written;
  private long dropped;

  private JvmOutput(OutputStream log, long cap, VerdictStream verdicts) {
    this.log = log;
    this.cap = cap;
    this.verdicts = verdicts;
  }

  /** Reads {@code in} to its end (or until it fails: the JVM was killed); returns the bytes the cap dropped. */
  static long drain(InputStream in, Path logFile, long cap, VerdictStream verdicts) {
    try (in; OutputStream log = new BufferedOutputStream(Files.newOutputStream(logFile))) {
      JvmOutput output = new JvmOutput(log, cap, verdicts);
      byte[] buffer = new byte[8192];
      int n;
      try {
        while ((n = in.read(buffer)) >= 0) {
          for (int i = 0; i < n; i++) {
            output.take(buffer[i]);
          }
        }
      } catch (IOException e) {
        // the process was killed; what came so far is kept
      }
      output.end();
      return output.dropped;
    } catch (IOException e) {
      return 0;
    }
  }

  private void take(byte b) throws IOException {
    switch (state) {
      case DECIDING -> {
        if (b == '\n') {
          if (line.size() == 0) {
            if (blankLineHeld) {
              toLog('\n');
            }
            blankLineHeld = true;
          } else {
            passLine();
            toLog('\n');
            log.flush();
            state = State.DECIDING;
          }
          return;
        }
        line.write(b);
        if (b != MARK[line.size() - 1]) {
          passLine();
        } else if (line.size() == MARK.length) {
          state = State.RECORD;
          blankLineHeld = false;              // the newline that came before the record was the record's own
        }
      }
      case RECORD -> {
        if (b == '\n') {
          verdicts.accept(line.toString(StandardCharsets.US_ASCII));
          line.reset();
          state = State.DECIDING;
        } else if (line.size() < MAX_RECORD_LINE) {
          line.write(b);
        }
      }
      case PASS -> {
        toLog(b);
        if (b == '\n') {
          log.flush();                        // a log read while the JVM runs shows whole lines
          state = State.DECIDING;
        }
      }
    }
  }

  /** The line so far is not a record: it goes to the log, after any blank line held back, and so does its rest. */
  private void passLine() throws IOException {
    if (blankLineHeld) {
      toLog('\n');
      blankLineHeld = false;
    }
    for (byte held : line.toByteArray()) {
      toLog(held);
    }
    line.reset();
    state = State.PASS;
  }

  private void end() throws IOException {
    if (state == State.RECORD) {
      verdicts.accept(line.toString(StandardCharsets.US_ASCII));   // cut short: judged as it is
    } else if (state == State.DECIDING && line.size() > 0) {
      passLine();
    }
    if (blankLineHeld) {
      toLog('\n');
    }
    log.flush();
  }

  private void toLog(int b) throws IOException {
    if (written < cap) {
      log.write(b);
      written++;
    } else {
      dropped++;
    }
  }
}
