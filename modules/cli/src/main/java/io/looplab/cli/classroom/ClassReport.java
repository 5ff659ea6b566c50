package io.looplab.cli.classroom;

import io.looplab.cli.engine.Exercise;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The folder a class grading writes: class.csv, index.html, and learners/NAME.json (each learner's report in the
 * format of `./lab grade --json`), so that a question about one row can be answered from its own report.
 */
public final class ClassReport {

  private ClassReport() {
  }

  public static void write(Path folder, String title, List<Exercise> exercises, List<LearnerResult> results) {
    try {
      Files.createDirectories(folder.resolve("learners"));
      Files.writeString(folder.resolve("class.csv"), ClassCsv.render(exercises, results));
      Files.writeString(folder.resolve("index.html"), ClassPage.render(title, exercises, results));
      for (LearnerResult r : results) {
        if (r.isGraded()) {
          Files.writeString(folder.resolve("learners").resolve(r.learner() + ".json"),
              r.board().toJson().encodePrettily());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
