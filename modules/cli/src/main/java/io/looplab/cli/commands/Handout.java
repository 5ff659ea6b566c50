package io.looplab.cli.commands;

import io.looplab.cli.engine.Kit;
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
 * repository so that the grader can take its originals back out of git as in the instructor's kit.
 */
final class Handout {

  record Written(int files, int leftOut) {
  }

  private Handout() {
  }

  static Written write(Kit kit, Path into) throws IOException {
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
      Path from = kit.root().resolve(path);
      if (!Files.exists(from, LinkOption.NOFOLLOW_LINKS)) {
        continue;
      }
      Path to = into.resolve(path);
      Files.createDirectories(to.getParent());
      Files.copy(from, to, StandardCopyOption.COPY_ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
      files++;
    }
    Path pom = into.resolve("pom.xml");
    String text = Files.readString(pom);
    Files.writeString(pom, text.replaceAll("(?m)^\\s*<module>solutions/[^<]*</module>\\R", ""));
    git(into, "init", "-q");
    git(into, "add", "-A");
    git(into, "-c", "user.name=Loop Lab", "-c", "user.email=looplab@localhost", "commit", "-q", "-m",
        "Loop Lab: the learners' kit");
    return new Written(files, leftOut);
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
