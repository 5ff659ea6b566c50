package io.looplab.cli.session;

import io.looplab.cli.engine.Kit;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * The results waiting to be sent to the session: one file per verdict in {@code .lab/outbox/}, named so that the
 * names sort in the order the verdicts came, and sent in that order. A file goes only once the server has taken it
 * (202) or refused it for good (a 4xx other than 429: it would fail forever, so it is dropped and logged); a server
 * away, slow or failing (5xx, 429) leaves it, and everything after it, for the next send. The queue is files, so it
 * survives the JVM, a restart of the laptop, and a {@code mvn clean}.
 *
 * <p>One sender at a time, across every JVM of the kit (the learner's commands and the warm check server): a file
 * lock says who. A sender that finds the lock taken leaves its verdict to the one holding it, which looks at the
 * folder again after letting go, so nothing queued meanwhile waits for a later command.
 */
public final class Outbox {

  /** What one send did. {@code left}: the files still queued after it; {@code why}: why it stopped early, or null. */
  public record Sent(int sent, int dropped, int left, String why) {
  }

  private static final String SUFFIX = ".json";

  private final Path dir;
  private final SessionLog log;
  private final SecureRandom random = new SecureRandom();

  public Outbox(Kit kit) {
    this.dir = JoinedSession.stateDir(kit).resolve("outbox");
    this.log = new SessionLog(kit);
  }

  public Path dir() {
    return dir;
  }

  /** A new result id: the time first, so that ids (and file names) sort as the verdicts came, then randomness. */
  public String newId() {
    Instant now = Instant.now();
    byte[] bytes = new byte[6];
    random.nextBytes(bytes);
    return String.format("%d%09d-%s", now.getEpochSecond(), now.getNano(), HexFormat.of().formatHex(bytes));
  }

  /** Queues a results body (its "id" names the file), written whole under a temporary name, then moved in. */
  public Path queue(JsonObject body) {
    String id = body.getString("id");
    try {
      Files.createDirectories(dir);
      Path file = dir.resolve(id + SUFFIX);
      Path building = dir.resolve("." + id + ".building");
      Files.writeString(building, body.encode(), StandardCharsets.UTF_8);
      Files.move(building, file, StandardCopyOption.ATOMIC_MOVE);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The queued files, oldest first. */
  public List<Path> queued() {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.getFileName().toString().endsWith(SUFFIX) && !f.getFileName().toString()
          .startsWith(".")).sorted().toList();
    } catch (IOException e) {
      return List.of();
    }
  }

  /** Drops every queued result (leaving a session); how many there were. */
  public int clear() {
    List<Path> files = queued();
    for (Path f : files) {
      try {
        Files.deleteIfExists(f);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return files.size();
  }

  /**
   * Sends the queue, oldest first, to {@code session}, until it is empty or a send fails; then, when it let go of
   * the lock with files still there that came meanwhile, once more. Never throws: what goes wrong is in the answer
   * and, for dropped results, in target/lab/session.log.
   */
  public Sent send(JoinedSession session, SessionHttp http) {
    int sent = 0;
    int dropped = 0;
    while (true) {
      Sent round = sendHoldingTheLock(session, http);
      if (round == null) {
        // Another sender holds the lock: it looks at the folder again when it lets go.
        return new Sent(sent, dropped, queued().size(), "another sender is at work");
      }
      sent += round.sent();
      dropped += round.dropped();
      if (round.why() != null || queued().isEmpty()) {
        return new Sent(sent, dropped, queued().size(), round.why());
      }
    }
  }

  /** One round under the lock; null when another sender holds it. */
  private Sent sendHoldingTheLock(JoinedSession session, SessionHttp http) {
    try {
      Files.createDirectories(dir);
      try (FileChannel channel = FileChannel.open(dir.resolve(".lock"), StandardOpenOption.CREATE,
          StandardOpenOption.WRITE)) {
        FileLock lock;
        try {
          lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
          lock = null;
        }
        if (lock == null) {
          return null;
        }
        try {
          return sendAll(session, http);
        } finally {
          lock.release();
        }
      }
    } catch (IOException | UncheckedIOException e) {
      return new Sent(0, 0, queued().size(), "the outbox cannot be read or written: " + e.getMessage());
    }
  }

  private Sent sendAll(JoinedSession session, SessionHttp http) {
    int sent = 0;
    int dropped = 0;
    for (Path file : queued()) {
      String body;
      try {
        body = Files.readString(file, StandardCharsets.UTF_8);
        new JsonObject(body);
      } catch (IOException | DecodeException | UncheckedIOException e) {
        if (!Files.exists(file)) {
          continue;
        }
        log.line("dropped " + file.getFileName() + " from the outbox: it is not a readable result");
        delete(file);
        dropped++;
        continue;
      }
      SessionHttp.Answer answer;
      try {
        answer = http.post(session.url() + "/api/results", session.token(), body);
      } catch (SessionHttp.Away away) {
        return new Sent(sent, dropped, -1, "the session server at " + session.url() + " is away: " + away.getMessage());
      }
      if (answer.accepted()) {
        delete(file);
        sent++;
      } else if (answer.status() == 429 || answer.status() == 408 || answer.status() >= 500) {
        return new Sent(sent, dropped, -1, "the session server answered " + answer.status() + ": " + answer.error());
      } else {
        // 400, 401, 403, 413: the same body would be refused the same way every time.
        log.line("dropped result " + file.getFileName().toString().replace(SUFFIX, "") + ": the session server "
            + "refused it with " + answer.status() + ": " + answer.error());
        delete(file);
        dropped++;
      }
    }
    return new Sent(sent, dropped, 0, null);
  }

  private static void delete(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
