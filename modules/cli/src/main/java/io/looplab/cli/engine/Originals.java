package io.looplab.cli.engine;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The kit's own stubs and graded tests, as they were shipped, whatever has happened to the working copy since.
 *
 * <p>A learner edits {@code exercises/NN/src/main} (that is the point) and may commit it; an instructor's kit may have
 * edited tests. Yet a missing exercise must be graded as the untouched stub, and every grading must use the kit's
 * own tests. So the kit ships {@value #MANIFEST}: the git blob id of every file under {@code exercises/NN/src}. A file
 * whose content still has that id is used as it is; any other is taken back out of git by its id
 * ({@code git cat-file blob}), which works whatever the learner committed since, as long as the kit came with its
 * history. Without it, the working copy is used and the report says so.
 */
public final class Originals {

  /** Where the manifest lives, relative to the kit's root. */
  public static final String MANIFEST = "modules/originals.txt";

  /** The two parts of an exercise that have originals. */
  public enum Part {
    STUB("main"), TESTS("test");

    final String folder;

    Part(String folder) {
      this.folder = folder;
    }
  }

  /**
   * A part of an exercise as shipped: {@code dir} plays the role of {@code src/main} or {@code src/test} (its
   * {@code java/} and {@code resources/} folders). {@code changed} lists the working copy's files that differ from
   * the originals (edited, added or removed); {@code recovered} is false when some original could not be had, and
   * {@code dir} is then the working copy.
   */
  public record Copy(Path dir, List<String> changed, boolean recovered, String whyNot) {

    public Path java() {
      return dir.resolve("java");
    }

    public Path resources() {
      return dir.resolve("resources");
    }

    public boolean changedInWorkingCopy() {
      return !changed.isEmpty();
    }
  }

  private final Kit kit;
  private final Map<String, String> blobByPath;

  private Originals(Kit kit, Map<String, String> blobByPath) {
    this.kit = kit;
    this.blobByPath = blobByPath;
  }

  public static Originals of(Kit kit) {
    Path manifest = kit.root().resolve(MANIFEST);
    Map<String, String> entries = new TreeMap<>();
    if (Files.exists(manifest)) {
      try {
        for (String line : Files.readAllLines(manifest)) {
          String trimmed = line.strip();
          if (trimmed.isEmpty() || trimmed.startsWith("#")) {
            continue;
          }
          int space = trimmed.indexOf(' ');
          if (space != 40) {
            throw new UsageError(MANIFEST + " is damaged (a line is not '<git blob id> <path>'): " + trimmed);
          }
          entries.put(trimmed.substring(space + 1).strip(), trimmed.substring(0, space));
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return new Originals(kit, entries);
  }

  /** Whether the manifest knows this exercise at all (a new exercise is not recorded until a maintainer does it). */
  public boolean records(Exercise exercise) {
    String prefix = prefix(exercise, Part.STUB);
    return blobByPath.keySet().stream().anyMatch(p -> p.startsWith(prefix));
  }

  /**
   * Whether the learner's {@code src/main} of {@code exercise} is still the stub as shipped, file for file: such an
   * exercise is not started, whatever its tests say. False when the manifest does not record the exercise.
   */
  public boolean untouched(Exercise exercise) {
    Map<String, String> wanted = entries(exercise, Part.STUB);
    return !wanted.isEmpty() && changes(exercise.dir().resolve("src").resolve(Part.STUB.folder), wanted).isEmpty();
  }

  /** The original of {@code part} of {@code exercise}: the working copy when it is untouched, else a copy made from git. */
  public Copy of(Exercise exercise, Part part) {
    Path working = exercise.dir().resolve("src").resolve(part.folder);
    Map<String, String> wanted = entries(exercise, part);
    if (wanted.isEmpty()) {
      return new Copy(working, List.of(), true, null);
    }
    List<String> changed = changes(working, wanted);
    if (changed.isEmpty()) {
      return new Copy(working, List.of(), true, null);
    }
    try {
      return new Copy(materialise(exercise, part, wanted), changed, true, null);
    } catch (IOException e) {
      return new Copy(working, changed, false, e.getMessage());
    }
  }

  /** Every difference between the working copy and the originals, as "path: edited|added|removed", for every exercise. */
  public List<String> differences() {
    List<String> all = new ArrayList<>();
    for (Exercise e : kit.exercises()) {
      for (Part part : Part.values()) {
        Path working = e.dir().resolve("src").resolve(part.folder);
        Map<String, String> wanted = entries(e, part);
        for (String file : changes(working, wanted)) {
          all.add(kit.root().relativize(working.resolve(file.substring(0, file.indexOf(' '))))
              + file.substring(file.indexOf(' ')));
        }
      }
    }
    return all;
  }

  /** Entries whose blob git cannot produce: a manifest that names content the kit's history does not hold. */
  public List<String> unrecoverable() {
    List<String> missing = new ArrayList<>();
    for (Map.Entry<String, String> e : blobByPath.entrySet()) {
      Path file = kit.root().resolve(e.getKey());
      if (Files.isRegularFile(file) && e.getValue().equals(blobIdOf(file))) {
        continue;
      }
      try {
        gitBlob(e.getValue());
      } catch (IOException ex) {
        missing.add(e.getKey() + " (" + ex.getMessage() + ")");
      }
    }
    return missing;
  }

  /** Rewrites the manifest from the working copy: for maintainers, after changing a stub or a graded test. */
  public static int record(Kit kit) {
    List<String> lines = new ArrayList<>();
    lines.add("# The kit's original stubs and graded tests, as git blob ids (git hash-object FILE). The grader uses");
    lines.add("# these originals for a missing exercise and for every grading's tests, whatever the working copy holds.");
    lines.add("# Maintainers: after changing a stub or a test, run ./lab originals --record and commit this file.");
    for (Exercise e : kit.exercises()) {
      for (Part part : Part.values()) {
        Path dir = e.dir().resolve("src").resolve(part.folder);
        for (Path file : files(dir)) {
          lines.add(blobIdOf(file) + " " + kit.root().relativize(file).toString().replace('\\', '/'));
        }
      }
    }
    try {
      Path manifest = kit.root().resolve(MANIFEST);
      Files.createDirectories(manifest.getParent());
      Files.write(manifest, lines);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return lines.size() - 3;
  }

  private Map<String, String> entries(Exercise exercise, Part part) {
    String prefix = prefix(exercise, part);
    Map<String, String> wanted = new LinkedHashMap<>();
    blobByPath.forEach((path, blob) -> {
      if (path.startsWith(prefix)) {
        wanted.put(path.substring(prefix.length()), blob);
      }
    });
    return wanted;
  }

  private String prefix(Exercise exercise, Part part) {
    return kit.root().relativize(exercise.dir()).toString().replace('\\', '/') + "/src/" + part.folder + "/";
  }

  /** Relative paths that differ, each followed by " edited", " added" or " removed". */
  private static List<String> changes(Path working, Map<String, String> wanted) {
    List<String> changed = new ArrayList<>();
    Map<String, String> present = new TreeMap<>();
    for (Path file : files(working)) {
      present.put(working.relativize(file).toString().replace('\\', '/'), blobIdOf(file));
    }
    wanted.forEach((path, blob) -> {
      String now = present.get(path);
      if (now == null) {
        changed.add(path + " removed");
      } else if (!now.equals(blob)) {
        changed.add(path + " edited");
      }
    });
    present.keySet().stream().filter(p -> !wanted.containsKey(p)).forEach(p -> changed.add(p + " added"));
    return changed;
  }

  /**
   * Writes the originals into a folder named after their content, so that concurrent gradings (and concurrent lab
   * processes) share one copy: it is built under a temporary name and moved into place whole.
   */
  private Path materialise(Exercise exercise, Part part, Map<String, String> wanted) throws IOException {
    String fingerprint = sha1(String.join("\n", wanted.entrySet().stream()
        .map(e -> e.getValue() + " " + e.getKey()).toList()).getBytes(StandardCharsets.UTF_8)).substring(0, 12);
    Path target = kit.workDir().resolve("originals").resolve(exercise.id() + "-" + part.folder + "-" + fingerprint);
    if (Files.isDirectory(target)) {
      return target;
    }
    Path building = Files.createDirectories(target.getParent()).resolve(target.getFileName() + ".building-"
        + ProcessHandle.current().pid() + "-" + Thread.currentThread().getId());
    for (Map.Entry<String, String> e : wanted.entrySet()) {
      Path file = building.resolve(e.getKey());
      Files.createDirectories(file.getParent());
      Files.write(file, gitBlob(e.getValue()));
    }
    Files.createDirectories(building.resolve("java"));
    try {
      Files.move(building, target, StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException | java.nio.file.FileAlreadyExistsException
             | java.nio.file.DirectoryNotEmptyException e) {
      if (!Files.isDirectory(target)) {
        throw e;
      }
      // Another grading made the same copy first; ours is not needed.
    }
    return target;
  }

  private byte[] gitBlob(String id) throws IOException {
    Process git;
    try {
      git = new ProcessBuilder("git", "-C", kit.root().toString(), "cat-file", "blob", id)
          .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    } catch (IOException e) {
      throw new IOException("git is not installed, so the original cannot be taken from the kit's history");
    }
    byte[] content;
    try (InputStream in = git.getInputStream()) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      in.transferTo(out);
      content = out.toByteArray();
    }
    try {
      if (!git.waitFor(30, TimeUnit.SECONDS)) {
        git.destroyForcibly();
        throw new IOException("git did not answer within 30 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted");
    }
    if (git.exitValue() != 0) {
      throw new IOException("the kit's git history does not hold it (a copy without .git, or a shallow clone?)");
    }
    return content;
  }

  private static List<Path> files(Path dir) {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      return walk.filter(Files::isRegularFile).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** What {@code git hash-object} prints: the SHA-1 of "blob LENGTH\0" and the content. */
  static String blobIdOf(Path file) {
    try {
      byte[] content = Files.readAllBytes(file);
      byte[] header = ("blob " + content.length + "\0").getBytes(StandardCharsets.US_ASCII);
      MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
      sha1.update(header);
      return HexFormat.of().formatHex(sha1.digest(content));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String sha1(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** For messages: the changed files' names, shortest form. */
  public static String describe(List<String> changed) {
    List<String> names = changed.stream().map(c -> {
      String path = c.substring(0, c.lastIndexOf(' '));
      return path.substring(path.lastIndexOf('/') + 1) + c.substring(c.lastIndexOf(' '));
    }).toList();
    return names.size() <= 3 ? String.join(", ", names)
        : String.join(", ", names.subList(0, 3)) + " and " + (names.size() - 3) + " more";
  }
}
