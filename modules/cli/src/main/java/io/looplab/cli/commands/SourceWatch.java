package io.looplab.cli.commands;

import io.looplab.cli.engine.SourceFingerprint;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Notices a save in a folder of sources by looking: file names, sizes and times first (cheap, every poll), then the
 * content, so that saving a file unchanged is not a change. Looking works the same on every system, where a
 * file-system watch service polls every few seconds on some.
 */
final class SourceWatch {

  private final Path dir;
  private String shape;
  private String content;

  SourceWatch(Path dir) {
    this.dir = dir;
    this.shape = shape();
    this.content = SourceFingerprint.of(dir);
  }

  /** When the sources' content changed since the last look (the newest file time), or empty. */
  Optional<Long> changedSinceLastLook() {
    String now = shape();
    if (now.equals(shape)) {
      return Optional.empty();
    }
    shape = now;
    String newContent = SourceFingerprint.of(dir);
    if (newContent.equals(content)) {
      return Optional.empty();
    }
    content = newContent;
    return Optional.of(newest());
  }

  private String shape() {
    StringBuilder s = new StringBuilder();
    try (Stream<Path> walk = Files.walk(dir)) {
      walk.filter(Files::isRegularFile).sorted().forEach(p -> s.append(p).append(' ').append(p.toFile().length())
          .append(' ').append(p.toFile().lastModified()).append('\n'));
    } catch (IOException | java.io.UncheckedIOException e) {
      // a file vanished mid-walk (an editor's temporary file): the next look sees the folder settled
      return shape;
    }
    return s.toString();
  }

  private long newest() {
    try (Stream<Path> walk = Files.walk(dir)) {
      return walk.filter(Files::isRegularFile).mapToLong(p -> p.toFile().lastModified()).max()
          .orElse(System.currentTimeMillis());
    } catch (IOException | java.io.UncheckedIOException e) {
      return System.currentTimeMillis();
    }
  }
}
