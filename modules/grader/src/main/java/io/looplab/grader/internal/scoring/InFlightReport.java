package io.looplab.grader.internal.scoring;

import io.looplab.report.ExerciseResult;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;

/**
 * What a grading JVM says after every test: the report so far, the test running now, and whether the run finished.
 * It reaches the kit as a signed record ({@link VerdictChannel}); only a plan listing, which runs none of the
 * learner's code, and the grader's own tests write it to a file. Its shape is defined here alone, so both sides agree
 * on it. It is not the contract's report: that is {@link ReportJson#contract(ExerciseResult)}.
 */
public record InFlightReport(ExerciseResult report, String running, boolean finished) {

  /** Written to a temporary file first and moved, so that a reader never sees half a report. */
  public void write(Path file) {
    JsonObject json = toJson();
    try {
      Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
      Files.writeString(tmp, json.encodePrettily(), StandardCharsets.UTF_8);
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("Could not write the grading report " + file, e);
    }
  }

  JsonObject toJson() {
    JsonObject json = new JsonObject().put("report", ReportJson.internal(report)).put("finished", finished);
    if (running != null) {
      json.put("running", running);
    }
    return json;
  }

  /** What {@link #toJson()} wrote. */
  static InFlightReport fromJson(JsonObject json) {
    return new InFlightReport(ReportJson.fromInternal(json.getJsonObject("report")), json.getString("running"),
        json.getBoolean("finished", false));
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
        return Optional.of(new InFlightReport(ReportJson.fromInternal(json), null, true));
      }
      return Optional.of(fromJson(json));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** Tests done so far, for a progress line. */
  public long done() {
    return report.tests().stream().filter(t -> !t.isPending()).count();
  }
}
