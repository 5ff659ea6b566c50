package io.looplab.cli.classroom;

import io.looplab.cli.engine.Exercise;
import io.looplab.cli.engine.UsageError;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The folder a class grading writes: class.csv, index.html, class-projector.html (the grid without names), and
 * learners/NAME.json (each learner's report in the format of `./lab grade --json`, see {@link LearnerFile}), so that
 * a question about one row can be answered from its own report. Each file is written whole and then moved into
 * place, so that a grading stopped mid-write leaves the previous, complete file.
 */
public final class ClassReport {

  /** The projector's page, beside index.html. */
  public static final String PROJECTOR_PAGE = "class-projector.html";

  private ClassReport() {
  }

  public static void write(Path folder, String title, List<Exercise> exercises, List<LearnerResult> results) {
    write(folder, title, exercises, results, results.size());
  }

  /** The report of {@code results}, the learners finished so far of a class of {@code classSize}. */
  public static void write(Path folder, String title, List<Exercise> exercises, List<LearnerResult> results,
      int classSize) {
    try {
      Files.createDirectories(folder.resolve("learners"));
      for (LearnerResult r : results) {
        if (r.isGraded()) {
          replace(folder.resolve("learners").resolve(r.learner() + ".json"),
              LearnerFile.toJson(r).encodePrettily());
        } else {
          // a learner graded before and now not a submission: their old report no longer says what they handed in
          Files.deleteIfExists(folder.resolve("learners").resolve(r.learner() + ".json"));
        }
      }
      replace(folder.resolve("class.csv"), ClassCsv.render(exercises, results));
      replace(folder.resolve("index.html"), ClassPage.render(title, exercises, results, classSize));
      replace(folder.resolve(PROJECTOR_PAGE), ClassPage.renderProjector(title, exercises, results, classSize));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The rows of an existing report, in its class.csv's order: each graded learner from their learners/NAME.json,
   * each learner the report could not grade with the note class.csv gave. A folder without class.csv is no report.
   */
  public static List<LearnerResult> read(Path folder) {
    Path csv = folder.resolve("class.csv");
    if (!Files.isRegularFile(csv)) {
      throw new UsageError("--out " + folder + ": not a class report (no class.csv in it): grade the whole class "
          + "into it first");
    }
    List<LearnerResult> rows = new ArrayList<>();
    for (ClassCsv.Row row : ClassCsv.read(csv)) {
      Optional<LearnerResult> graded = LearnerFile.read(row.learner(),
          folder.resolve("learners").resolve(row.learner() + ".json"));
      rows.add(graded.orElseGet(() -> LearnerResult.notGraded(row.learner(), row.note().isEmpty()
          ? "its report (learners/" + row.learner() + ".json) is missing or damaged: grade it again with --learner "
          + row.learner() : row.note(), 0)));
    }
    return rows;
  }

  private static void replace(Path file, String text) throws IOException {
    Path next = file.resolveSibling(file.getFileName() + ".next");
    Files.writeString(next, text);
    try {
      Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(next, file, StandardCopyOption.REPLACE_EXISTING);
    }
  }
}
