package io.looplab.cli.engine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * What a submission's {@code src/main} may not hold, checked before it is compiled: the grading JVM puts the
 * submission's classes before the grader's libraries, so a class in one of their packages would run in their place
 * (a ScoringListener that gives full marks, say), and a service file or JUnit configuration would change how the
 * tests run. A symbolic link that leads out of the submission would grade (or leak) a file of the grader's machine.
 * None of this is needed to solve an exercise, so it is refused with the reason, not silently dropped.
 */
final class SubmissionCheck {

  /** Packages of the grader and of the libraries it runs the tests with, as folders. */
  static final List<String> RESERVED_PACKAGES = List.of("io/looplab/grader/", "io/looplab/report/", "org/junit/", "org/opentest4j/",
      "io/vertx/", "io/netty/", "reactor/blockhound/");
  /** Resources that would configure the test engine or the guard rather than the learner's code. */
  static final List<String> RESERVED_RESOURCES = List.of("junit-platform.properties", "META-INF/services/org.junit.",
      "META-INF/services/reactor.blockhound.");

  private SubmissionCheck() {
  }

  /** Why the {@code src/main} folder {@code main} must not be graded, or empty when it may. */
  static Optional<String> problemWith(Path main) {
    Path root;
    try {
      root = main.toRealPath();
    } catch (IOException e) {
      return Optional.of("its src/main folder cannot be read (" + e.getMessage() + ")");
    }
    try (Stream<Path> walk = Files.walk(main)) {
      for (Path p : walk.toList()) {
        String relative = main.relativize(p).toString().replace('\\', '/');
        if (Files.isSymbolicLink(p)) {
          Optional<String> outside = leadsOutside(p, root, relative);
          if (outside.isPresent()) {
            return outside;
          }
        }
        if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
          continue;
        }
        Optional<String> reserved = reserved(relative);
        if (reserved.isPresent()) {
          return reserved;
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return Optional.empty();
  }

  /** Why the compiled classes in {@code classes} must not run (a source file that declared a reserved package). */
  static Optional<String> problemWithCompiled(Path classes) {
    try (Stream<Path> walk = Files.walk(classes)) {
      return walk.filter(Files::isRegularFile).map(p -> classes.relativize(p).toString().replace('\\', '/'))
          .filter(p -> RESERVED_PACKAGES.stream().anyMatch(p::startsWith)).findFirst()
          .map(p -> "it declares the class " + p.replace(".class", "").replace('/', '.') + ", in a package of the "
              + "grader or of its test libraries, where it would run in place of theirs");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Optional<String> reserved(String relative) {
    for (String folder : List.of("java/", "resources/")) {
      if (!relative.startsWith(folder)) {
        continue;
      }
      String inside = relative.substring(folder.length());
      for (String pkg : RESERVED_PACKAGES) {
        if (inside.startsWith(pkg)) {
          return Optional.of("src/main/" + relative + " is in " + pkg.replace('/', '.').replaceAll("\\.$", "")
              + ", a package of the grader or of its test libraries, where it would run in place of theirs");
        }
      }
      for (String resource : RESERVED_RESOURCES) {
        if (folder.equals("resources/") && inside.startsWith(resource)) {
          return Optional.of("src/main/" + relative + " would configure the test engine or the guard, not the "
              + "exercise's code");
        }
      }
    }
    return Optional.empty();
  }

  private static Optional<String> leadsOutside(Path link, Path root, String relative) {
    try {
      Path target = link.toRealPath();
      return target.startsWith(root) ? Optional.empty() : Optional.of("src/main/" + relative + " is a symbolic "
          + "link to " + target + ", outside the exercise's src/main");
    } catch (IOException e) {
      return Optional.of("src/main/" + relative + " is a symbolic link that leads nowhere readable (to "
          + linkTarget(link) + ")");
    }
  }

  private static String linkTarget(Path link) {
    try {
      return Files.readSymbolicLink(link).toString();
    } catch (IOException e) {
      return "?";
    }
  }
}
