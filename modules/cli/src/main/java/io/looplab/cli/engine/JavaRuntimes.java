package io.looplab.cli.engine;

import io.looplab.grader.internal.settings.Setting;
import io.looplab.grader.internal.settings.Settings;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The JDK that runs an exercise's grading JVM. Most exercises run on the JDK that runs the kit; one that needs a
 * newer Java (14 needs virtual threads, JDK 21) runs on a newer JDK found on the machine, so that a kit started with
 * JDK 17 still grades it. The code is compiled for Java 17 either way: what needs the newer JDK is the run.
 */
public final class JavaRuntimes {

  private static final Pattern VERSION = Pattern.compile("(?m)^JAVA_VERSION=\"(\\d+)");
  private static final Map<Integer, Optional<Path>> found = new ConcurrentHashMap<>();

  private JavaRuntimes() {
  }

  /** The feature version of the JDK running this code: 17, 21, 25. */
  public static int current() {
    return Runtime.version().feature();
  }

  /**
   * The {@code java} launcher to use for a JVM that needs Java {@code minimum} or newer: this JDK's own when it is
   * new enough, else the newest JDK found in {@code LOOPLAB_JAVA_HOME}, {@code JAVA_HOME} or {@code /usr/lib/jvm}.
   */
  public static Optional<Path> javaFor(int minimum) {
    if (current() >= minimum) {
      return Optional.of(Path.of(System.getProperty("java.home"), "bin", "java"));
    }
    return found.computeIfAbsent(minimum, JavaRuntimes::search);
  }

  /** One line for a person: why an exercise that needs {@code minimum} cannot be graded here. */
  public static String missing(Exercise exercise) {
    return exercise.id() + " needs JDK " + exercise.minimumJava() + " or newer, and this is JDK " + current()
        + " (no newer JDK in LOOPLAB_JAVA_HOME, JAVA_HOME or /usr/lib/jvm): install one, or run ./lab with "
        + "JAVA_HOME pointing at it";
  }

  private static Optional<Path> search(int minimum) {
    List<Path> homes = new ArrayList<>();
    for (Setting variable : List.of(Settings.JAVA_HOME_FIRST, Settings.JAVA_HOME)) {
      variable.raw().ifPresent(value -> homes.add(Path.of(value)));
    }
    Path jvms = Path.of("/usr/lib/jvm");
    if (Files.isDirectory(jvms)) {
      try (Stream<Path> dirs = Files.list(jvms)) {
        dirs.sorted().forEach(homes::add);
      } catch (IOException e) {
        // no JDKs to offer
      }
    }
    return homes.stream().filter(h -> Files.isExecutable(h.resolve("bin/java")) && version(h) >= minimum)
        .max(Comparator.comparingInt(JavaRuntimes::version)).map(h -> h.resolve("bin/java"));
  }

  /** A JDK's feature version, from the {@code release} file every JDK has; 0 when it cannot be read. */
  private static int version(Path home) {
    try {
      Matcher m = VERSION.matcher(Files.readString(home.resolve("release")));
      return m.find() ? Integer.parseInt(m.group(1)) : 0;
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }
}
