package io.looplab.cli.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Where a grading's code and tests come from: the target's own code, or the kit's original stub when the target has
 * none ({@code stub}, else null), and always the kit's original tests; {@code ignoredTests}: tests of a submission's
 * own that differ from the kit's and are not used (else null).
 */
record GradingSources(Path mainDir, Originals.Copy stub, Originals.Copy tests, Path ignoredTests) {

  static GradingSources of(Exercise exercise, Target target, Originals originals) {
    Optional<Path> given = target.mainDir(exercise);
    Originals.Copy stub = given.isPresent() ? null : originals.of(exercise, Originals.Part.STUB);
    Originals.Copy tests = originals.of(exercise, Originals.Part.TESTS);
    Path ownTests = given.map(main -> main.resolveSibling("test")).orElse(null);
    boolean ignored = ownTests != null && !target.isLearnersOwnCopy() && holdsFiles(ownTests)
        && !SourceFingerprint.of(ownTests).equals(SourceFingerprint.of(tests.dir()));
    return new GradingSources(given.isPresent() ? given.get() : stub.dir(), stub, tests, ignored ? ownTests : null);
  }

  /**
   * What the report must say about where the graded code and tests came from: plainly, whenever the kit's working
   * copy was not used as it is; null when it was.
   */
  String originNote() {
    List<String> notes = new ArrayList<>();
    if (stub != null) {
      notes.add("This exercise is not in the submission, so the kit's original stub was graded"
          + (stub.changedInWorkingCopy() && stub.recovered() ? " (not the kit's edited copy of it)" : "")
          + (stub.recovered() ? "." : ": its original could not be recovered (" + stub.whyNot()
          + "), so the kit's working copy was graded, which differs from it: " + Originals.describe(stub.changed()) + "."));
    }
    if (tests.changedInWorkingCopy()) {
      notes.add(tests.recovered()
          ? "The kit's copy of the graded tests differs from the original (" + Originals.describe(tests.changed())
              + "), so the original tests were used."
          : "The kit's copy of the graded tests differs from the original (" + Originals.describe(tests.changed())
              + ") and the original could not be recovered (" + tests.whyNot() + "): this grade used the changed tests.");
    }
    return notes.isEmpty() ? null : String.join(" ", notes);
  }

  private static boolean holdsFiles(Path dir) {
    if (!Files.isDirectory(dir)) {
      return false;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      return walk.anyMatch(Files::isRegularFile);
    } catch (IOException e) {
      return false;
    }
  }
}
