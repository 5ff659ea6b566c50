package io.looplab.cli.session;

import io.looplab.cli.engine.Exercise;
import io.looplab.cli.engine.Kit;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A learner's work as the protocol's submissions body: every file under {@code exercises/*}{@code /src/main} of the
 * kit, base64, keyed by its path from the kit's root, with the kit's version. A file whose name the server would
 * refuse (a space, an accent) is left out and named, rather than failing the whole submission.
 */
public record SubmissionPack(Map<String, byte[]> files, List<String> leftOut, int exercises) {

  /** The most a session server takes in one submission body. */
  public static final int LIMIT = 2 * 1024 * 1024;

  /** The names the session server takes: what its Submission check allows. */
  private static final Pattern SENDABLE = Pattern.compile("exercises/[A-Za-z0-9._-]+/src/main/[A-Za-z0-9._/-]+");

  public static SubmissionPack of(Kit kit) {
    Map<String, byte[]> files = new LinkedHashMap<>();
    List<String> leftOut = new ArrayList<>();
    int exercises = 0;
    for (Exercise exercise : kit.exercises()) {
      Path main = exercise.dir().resolve("src/main");
      List<Path> found = regularFiles(main);
      if (!found.isEmpty()) {
        exercises++;
      }
      for (Path file : found) {
        String name = kit.root().relativize(file).toString().replace('\\', '/');
        if (!SENDABLE.matcher(name).matches()) {
          leftOut.add(name);
          continue;
        }
        try {
          files.put(name, Files.readAllBytes(file));
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
    return new SubmissionPack(files, leftOut, exercises);
  }

  /** The body to post, {@code id} naming this submission (a resend of the same id is graded once). */
  public String body(String kitVersion, String id) {
    JsonObject encoded = new JsonObject();
    files.forEach((name, bytes) -> encoded.put(name, Base64.getEncoder().encodeToString(bytes)));
    return new JsonObject().put("kitVersion", kitVersion).put("id", id).put("files", encoded).encode();
  }

  public long bytes() {
    return files.values().stream().mapToLong(b -> b.length).sum();
  }

  /** The {@code count} largest files, as "name (size)", largest first. */
  public List<String> largest(int count) {
    return files.entrySet().stream()
        .sorted(Comparator.comparingInt((Map.Entry<String, byte[]> e) -> e.getValue().length).reversed())
        .limit(count).map(e -> e.getKey() + " (" + size(e.getValue().length) + ")").toList();
  }

  /** A size as people read it: bytes, KiB or MiB. */
  public static String size(long bytes) {
    if (bytes < 1024) {
      return bytes + " bytes";
    }
    if (bytes < 1024 * 1024) {
      return String.format(java.util.Locale.ROOT, "%.1f KiB", bytes / 1024.0);
    }
    return String.format(java.util.Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024));
  }

  private static List<Path> regularFiles(Path dir) {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      return walk.filter(Files::isRegularFile).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
