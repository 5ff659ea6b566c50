package io.looplab.cli.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** Copying and replacing folders of sources; symbolic links are copied as links, never followed out of the folder. */
public final class FileTrees {

  private FileTrees() {
  }

  /** Copies {@code from} (a folder) to {@code to}, which must not exist yet. */
  public static void copy(Path from, Path to) throws IOException {
    Files.createDirectories(to.getParent());
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path p : walk.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
        }
      }
    }
  }

  /** Makes {@code dir} hold exactly what {@code from} holds. */
  public static void replaceContents(Path dir, Path from) throws IOException {
    delete(dir);
    copy(from, dir);
  }

  /** Deletes {@code dir} and everything in it, then makes it again, empty; returns it. */
  public static Path fresh(Path dir) throws IOException {
    delete(dir);
    return Files.createDirectories(dir);
  }

  /** Deletes {@code dir} and everything in it; nothing happens when it does not exist. */
  public static void delete(Path dir) throws IOException {
    if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      List<Path> deepestFirst = walk.sorted(Comparator.reverseOrder()).toList();
      for (Path p : deepestFirst) {
        Files.delete(p);
      }
    }
  }
}
