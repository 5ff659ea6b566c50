package io.looplab.cli.session;

import io.looplab.cli.engine.Kit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * target/lab/session.log: what the background posting did that the learner was not told at the time (a result the
 * server refused for good, a queue left for later). One line each, oldest first; losing it loses nothing else.
 */
public final class SessionLog {

  private final Path file;

  public SessionLog(Kit kit) {
    this.file = kit.workDir().resolve("session.log");
  }

  public Path file() {
    return file;
  }

  public void line(String text) {
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, Instant.now().truncatedTo(ChronoUnit.SECONDS) + " " + text.replace('\n', ' ') + "\n",
          StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    } catch (IOException e) {
      // a log that cannot be written costs only the log: the check goes on
    }
  }
}
