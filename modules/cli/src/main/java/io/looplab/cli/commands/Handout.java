package io.looplab.cli.commands;

import io.looplab.cli.engine.Exercise;
import io.looplab.cli.engine.Kit;
import io.looplab.cli.engine.Originals;
import io.looplab.cli.engine.UsageError;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The learners' copy of a kit: the files git tracks (so nothing built, and nothing the instructor has not
 * committed), minus {@code solutions/}, with the root pom's solution modules taken out, committed in a new git
 * repository so that the grader can take its originals back out of git as in the instructor's kit. Every exercise's
 * stub and graded tests are the kit's originals ({@link Originals}), whatever the working copy holds: a kit whose
 * owner solved an exercise, or edited a test, still hands out the stub and the tests as shipped.
 */
public final class Handout {

  /**
   * @param restored the working copy's files of stubs and tests that differ from the originals, which the handout
   *                 holds as shipped instead ("exercises/01-x/src/main/java/A.java: edited")
   */
  public record Written(int files, int leftOut, List<String> restored) {
  }

  private Handout() {
  }

  public static Written write(Kit kit, Path into) throws IOException {
    Originals originals = Originals.of(kit);
    List<String> parts = new ArrayList<>();
    for (Exercise e : kit.exercises()) {
      for (Originals.Part part : Originals.Part.values()) {
        parts.add(kit.root().relativize(e.dir().resolve("src").resolve(part == Originals.Part.STUB ? "main" : "test"))
            + "/");
      }
    }
    List<String> tracked = git(kit.root(), "ls-files", "-z");
    int files = 0;
    int leftOut = 0;
    for (String path : tracked) {
      if (path.isEmpty()) {
        continue;
      }
      if (path.startsWith("solutions/")) {
        leftOut++;
        continue;
      }
      if (parts.stream().anyMatch(path::startsWith)) {
        continue; // written below, from the originals
      }
      Path from = kit.root().resolve(path);
      if (!Files.exists(from, LinkOption.NOFOLLOW_LINKS)) {
        continue;
      }
      Path to = into.resolve(path);
      Files.createDirectories(to.getParent());
      Files.copy(from, to, StandardCopyOption.COPY_ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
      files++;
    }
    List<String> restored = new ArrayList<>();
    for (Exercise e : kit.exercises()) {
      for (Originals.Part part : Originals.Part.values()) {
        Originals.Copy original = originals.of(e, part);
        if (!original.recovered()) {
          throw new UsageError("handout: the original " + (part == Originals.Part.STUB ? "stub" : "tests") + " of "
              + e.id() + " cannot be recovered (" + original.whyNot() + "), and the working copy differs from it: "
              + Originals.describe(original.changed()));
        }
        Path to = into.resolve(kit.root().relativize(e.dir())).resolve("src")
            .resolve(part == Originals.Part.STUB ? "main" : "test");
        files += copyFiles(original.dir(), to);
        original.changed().forEach(change -> restored.add(kit.root().relativize(e.dir()) + "/src/"
            + (part == Originals.Part.STUB ? "main" : "test") + "/" + change));
      }
    }
    Path pom = into.resolve("pom.xml");
    if (Files.exists(pom)) {
      String text = Files.readString(pom);
      Files.writeString(pom, text.replaceAll("(?m)^\\s*<module>solutions/[^<]*</module>\\R", ""));
    }
    git(into, "init", "-q");
    git(into, "add", "-A");
    git(into, "-c", "user.name=Loop Lab", "-c", "user.email=looplab@localhost", "commit", "-q", "-m",
        "Loop Lab: the learners' kit");
    return new Written(files, leftOut, restored);
  }

  /** Copies the regular files under {@code from} to the same places under {@code to}; returns how many. */
  private static int copyFiles(Path from, Path to) throws IOException {
    if (!Files.isDirectory(from)) {
      return 0;
    }
    int copied = 0;
    try (var walk = Files.walk(from)) {
      for (Path file : walk.filter(Files::isRegularFile).toList()) {
        Path target = to.resolve(from.relativize(file).toString());
        Files.createDirectories(target.getParent());
        Files.copy(file, target, StandardCopyOption.COPY_ATTRIBUTES);
        copied++;
      }
    }
    return copied;
  }

  private static List<String> git(Path dir, String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of("git", "-c", "core.quotePath=false"));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(false).start();
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    try {
      if (p.waitFor() != 0) {
        throw new UsageError("handout needs the kit as a git clone, and git " + args[0] + " failed: "
            + err.strip().lines().findFirst().orElse("exit " + p.exitValue()));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UsageError("interrupted");
    }
    return List.of(out.split("\0"));
  }
}
