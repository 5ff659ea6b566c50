package io.looplab.cli.session;

import io.looplab.cli.engine.Kit;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;

/**
 * The session this kit has joined ({@code ./lab join}): the server's URL, the learner's id and token, and the name
 * joined under. Kept in {@code .lab/session.json} at the kit's root, which git ignores and {@code mvn clean} leaves
 * alone (a learner who cleans must not drop out of the session). The token is a secret: the file is the owner's only.
 */
public record JoinedSession(String url, String learner, String token, String name) {

  /** The kit's folder for session state: the joined session, the outbox, ./lab serve's data. */
  public static Path stateDir(Kit kit) {
    return kit.root().resolve(".lab");
  }

  static Path file(Kit kit) {
    return stateDir(kit).resolve("session.json");
  }

  /** The session the kit has joined; empty when it has none, or when the file is damaged (join again then). */
  public static Optional<JoinedSession> of(Kit kit) {
    Path file = file(kit);
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    try {
      JsonObject json = new JsonObject(Files.readString(file));
      JoinedSession session = new JoinedSession(json.getString("url"), json.getString("learner"),
          json.getString("token"), json.getString("name"));
      return session.url() == null || session.token() == null ? Optional.empty() : Optional.of(session);
    } catch (IOException | DecodeException | ClassCastException e) {
      return Optional.empty();
    }
  }

  /** Stores this session as the kit's, replacing any other, in one move (a reader never sees half a file). */
  public void save(Kit kit) {
    Path file = file(kit);
    try {
      Files.createDirectories(file.getParent());
      Path building = file.resolveSibling("session.json.building-" + ProcessHandle.current().pid());
      Files.deleteIfExists(building);
      Files.createFile(building);
      ownerOnly(building);
      Files.writeString(building, new JsonObject().put("url", url).put("learner", learner).put("token", token)
          .put("name", name).encodePrettily() + "\n");
      Files.move(building, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Forgets the kit's session; false when it had none. */
  public static boolean forget(Kit kit) {
    try {
      return Files.deleteIfExists(file(kit));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Whether {@code other} is the same learner of the same session: queued results stay valid for it. */
  public boolean sameLearnerAs(JoinedSession other) {
    return url.equals(other.url) && learner != null && learner.equals(other.learner);
  }

  private static void ownerOnly(Path file) throws IOException {
    try {
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    } catch (UnsupportedOperationException e) {
      // Windows: the file stays with the folder's permissions, which are the user's own there
    }
  }
}
