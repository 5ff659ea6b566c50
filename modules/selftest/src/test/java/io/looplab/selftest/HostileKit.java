package io.looplab.selftest;

import io.looplab.cli.engine.Kit;
import io.looplab.cli.engine.Target;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.stream.Stream;

/**
 * The one-exercise kit of src/test/resources/hostile-kit (01-smoke: a 2-point pure test and a 3-point handler test;
 * its stub scores 3/5), copied where a test may change it, and the misbehaving versions of its Adder.java.
 */
final class HostileKit {

  static final String ADDER = "src/main/java/io/looplab/smoke/Adder.java";

  private HostileKit() {
  }

  private static Kit shared;

  /**
   * The one copy that the test classes sharing the "hostile NAME" gradings ({@link #startGrading}) all use, so that
   * those gradings' work files are in the kit that each of them looks in, whichever class started them. It lives in
   * this module's target/, which a clean build empties.
   */
  static synchronized Kit shared() throws IOException {
    if (shared == null) {
      Path dir = Path.of("target", "hostile-kit").toAbsolutePath();
      if (Files.exists(dir)) {
        io.looplab.cli.engine.FileTrees.delete(dir);
      }
      shared = copyTo(dir);
    }
    return shared;
  }

  /** A copy of the kit in {@code dir}, with the libraries of a real exercise: ready to grade. */
  static Kit copyTo(Path dir) throws IOException {
    copy(resource("hostile-kit"), dir);
    borrowClasspath(Kit.locate().find("02-blocking-calls"), dir, "01-smoke");
    return Kit.at(dir);
  }

  /**
   * Gives exercise {@code id} of the kit at {@code root} the class path file that Maven wrote for {@code built} in
   * this kit: what a kit's first `./lab` run would write, without running Maven again.
   */
  static void borrowClasspath(io.looplab.cli.engine.Exercise built, Path root, String id) throws IOException {
    Path dest = root.resolve("exercises").resolve(id).resolve("target/lab-classpath.txt");
    Files.createDirectories(dest.getParent());
    Files.copy(built.classpathFile(), dest, StandardCopyOption.REPLACE_EXISTING);
  }

  /**
   * Queues the grading of {@code submission} ("solution", "stub", or a misbehaving one) as `./lab grade --submission`
   * grades it, named "hostile NAME", once: the test classes that need it share it.
   */
  static void startGrading(Kit kit, String submission) {
    Gradings.startOnce("hostile " + submission, () -> Gradings.withEngine(kit, engine -> engine.grade(
        kit.find("01-smoke"), Target.submission(kit, submissionFolder(submission)), (e, doing) -> { })));
  }

  /** The folder a learner would hand in: the layout of exercises/, for "solution", "stub" or a misbehaving one. */
  static Path submissionFolder(String submission) {
    return switch (submission) {
      case "solution" -> resource("hostile-kit/solutions");
      case "stub" -> resource("hostile-kit/exercises");
      default -> submission(submission);
    };
  }

  /** The folder of a misbehaving submission: sleeps-5ms-on-loop, never-returns, calls-system-exit, ... */
  static Path submission(String name) {
    return resource("hostile-submissions").resolve(name);
  }

  /** Puts the Adder.java of {@code submission} (or "solution", or "stub") into the kit copy at {@code kit}. */
  static void saveAdder(Path kit, String submission) throws IOException {
    Path from = switch (submission) {
      case "solution" -> resource("hostile-kit/solutions/01-smoke").resolve(ADDER);
      case "stub" -> resource("hostile-kit/exercises/01-smoke").resolve(ADDER);
      default -> submission(submission).resolve("01-smoke").resolve(ADDER);
    };
    Files.copy(from, kit.resolve("exercises/01-smoke").resolve(ADDER), StandardCopyOption.REPLACE_EXISTING);
  }

  static Path resource(String name) {
    return Kit.locate().root().resolve("modules/selftest/src/test/resources").resolve(name);
  }

  static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path p : walk.toList()) {
        Path dest = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(dest);
        } else {
          Files.copy(p, dest, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }
}
