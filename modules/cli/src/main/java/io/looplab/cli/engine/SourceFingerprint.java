package io.looplab.cli.engine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/** A digest of a folder's files, names and contents alike: equal exactly when nothing in it was changed. */
public final class SourceFingerprint {

  private SourceFingerprint() {
  }

  /** The SHA-256 of every regular file's relative path and bytes, in path order; "" for a missing folder. */
  public static String of(Path dir) {
    if (!Files.isDirectory(dir)) {
      return "";
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      List<Path> files = walk.filter(Files::isRegularFile).sorted().toList();
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      for (Path f : files) {
        sha.update(dir.relativize(f).toString().replace('\\', '/').getBytes(StandardCharsets.UTF_8));
        sha.update((byte) 0);
        sha.update(Files.readAllBytes(f));
        sha.update((byte) 0);
      }
      return HexFormat.of().formatHex(sha.digest());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }
}
