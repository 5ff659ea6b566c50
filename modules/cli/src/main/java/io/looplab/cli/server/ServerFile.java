package io.looplab.cli.server;

import io.looplab.cli.engine.Kit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Where a running check server says how to reach it: {@code target/lab/server}, one line of "port secret pid
 * stamp", readable by its owner alone, so that no other user of the machine can ask it to run code.
 */
final class ServerFile {

  private final Path path;

  ServerFile(Kit kit) {
    this.path = kit.workDir().resolve("server");
  }

  void write(int port, String secret, long pid, long stamp) {
    try {
      Files.createDirectories(path.getParent());
      Path tmp = path.resolveSibling("server.tmp");
      Files.deleteIfExists(tmp);
      Files.createFile(tmp);
      try {
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
      } catch (UnsupportedOperationException notPosix) {
        // a file system without owners: nothing to restrict
      }
      Files.writeString(tmp, port + " " + secret + " " + pid + " " + stamp + "\n");
      Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Removes the file if it still names this server (a newer one may have replaced it). */
  void deleteIfMine(long pid) {
    try {
      if (Files.exists(path)) {
        String[] fields = Files.readString(path).strip().split(" ");
        if (fields.length >= 3 && fields[2].equals(Long.toString(pid))) {
          Files.delete(path);
        }
      }
    } catch (IOException e) {
      // it goes with the next build's clean anyway
    }
  }
}
