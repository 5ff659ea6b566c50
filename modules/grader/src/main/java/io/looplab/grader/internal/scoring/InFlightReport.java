package io.looplab.grader.internal.scoring;

import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;

/**
 * The report file a grading JVM rewrites after every test, and the kit reads: the report so far, the test running
 * now, and whether the run finished. Reading and writing it happen here alone, so both sides agree on its shape.
 * It is not the contract's report: that is {@link ExerciseReport#toJson()}.
 */
public record InFlightReport(ExerciseReport report, String running, boolean finished) {

  /** Written to a temporary file first and moved, so that a reader never sees half a report. */
  public void write(Path file) {
    JsonObject json = new JsonObject().put("report", report.toInternalJson()).put("finished", finished);
    if (running != null) {
      json.put("running", running);
    }
    try {
      Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
      Files.writeString(tmp, json.encodePrettily(), StandardCharsets.UTF_8);
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("Could not write the grading report " + file, e);
    }
  }

  /** The file's content, or empty when it is missing or unreadable (a JVM that died before its first write). */
  public static Optional<InFlightReport> read(Path file) {
    try {
      if (!Files.exists(file)) {
        return Optional.empty();
      }
      JsonObject json = new JsonObject(Files.readString(file));
      if (!json.containsKey("report")) {
        // A learner's saved result from before this format: the report itself, finished.
        return Optional.of(new InFlightReport(ExerciseReport.fromJson(json), null, true));
      }
      return Optional.of(new InFlightReport(ExerciseReport.fromJson(json.getJsonObject("report")),
          json.getString("running"), json.getBoolean("finished", false)));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** Tests done so far, for a progress line. */
  public long done() {
    return report.tests().stream().filter(t -> !t.isPending()).count();
  }
}
