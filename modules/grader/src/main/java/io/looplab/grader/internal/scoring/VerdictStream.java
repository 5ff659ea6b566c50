package io.looplab.grader.internal.scoring;

import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The kit's end of the verdict's way (see {@link VerdictFormat}): it is given every line of the grading JVM's output
 * that claims to be part of a record, checks each record whole (its parts in order, its number the next one, its
 * signature made with this JVM's key), and keeps the latest report of each job. The first line that fails any check
 * is kept as the {@link #problem()}; from then on nothing this JVM says is believed.
 */
public final class VerdictStream {

  private final byte[] key;
  private final Map<String, InFlightReport> latest = new HashMap<>();
  private final Map<String, Where> wheres = new HashMap<>();
  private final Map<String, String> done = new HashMap<>();
  private long lastNumber;
  private StringBuilder parts;
  private int partsSeen;
  private String problem;
  private long records;

  public VerdictStream(byte[] key) {
    this.key = key.clone();
  }

  /** Takes one line of output that {@link VerdictFormat#isRecordLine starts with the mark}, without its newline. */
  public synchronized void accept(String line) {
    if (problem != null) {
      return;
    }
    String[] fields = line.split(" ", -1);
    long number;
    int part;
    int count;
    try {
      if (!fields[0].equals(VerdictFormat.MARK) || fields.length < 5 || fields.length > 6) {
        throw new NumberFormatException();
      }
      number = Long.parseLong(fields[1]);
      part = Integer.parseInt(fields[2]);
      count = Integer.parseInt(fields[3]);
    } catch (NumberFormatException e) {
      refuse("a line in the verdict's form that is not one (" + shortened(line) + ")");
      return;
    }
    boolean last = part == count;
    if (number != lastNumber + 1 || part != partsSeen + 1 || count < part || (fields.length == 6) != last) {
      refuse("a verdict line out of place (record " + number + ", part " + part + " of " + count + ", after record "
          + lastNumber + ")");
      return;
    }
    if (parts == null) {
      parts = new StringBuilder();
    }
    parts.append(fields[4]);
    partsSeen = part;
    if (parts.length() > VerdictFormat.MAX_RECORD_BYTES * 4L / 3 + 4) {
      refuse("a verdict record larger than any report");
      return;
    }
    if (last) {
      close(number, parts.toString(), fields[5]);
    }
  }

  private void close(long number, String encoded, String signature) {
    parts = null;
    partsSeen = 0;
    String payload;
    try {
      payload = new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      refuse("a verdict record that is not base64");
      return;
    }
    if (!VerdictFormat.signature(key, number, payload).equals(signature)) {
      refuse("a verdict record not signed by the grader (record " + number + ")");
      return;
    }
    try {
      JsonObject record = new JsonObject(payload);
      JsonObject where = record.getJsonObject("where");
      if (record.containsKey("done")) {
        done.put(record.getString("job"), record.getString("done"));
      } else if (where != null) {
        wheres.put(record.getString("job"), new Where(where.getString("text"), where.getBoolean("inLearnersCode")));
      } else {
        latest.put(record.getString("job"), InFlightReport.fromJson(record.getJsonObject("report")));
      }
    } catch (RuntimeException e) {
      refuse("a signed verdict record the kit cannot read (" + e.getMessage() + ")");
      return;
    }
    lastNumber = number;
    records++;
  }

  private void refuse(String why) {
    problem = why;
    latest.clear();
    wheres.clear();
    done.clear();
  }

  /** The word a serving JVM said after {@code job} ("next" or "end"), once it said it. */
  public synchronized Optional<String> done(Path job) {
    return problem != null ? Optional.empty() : Optional.ofNullable(done.get(job.toString()));
  }

  /**
   * Where a job's tests were when the kit's time limit struck, as the grading JVM answered: {@code text} in words
   * (empty when its thread ran neither the learner's code nor a test's), and whether that is in the learner's code.
   */
  public record Where(String text, boolean inLearnersCode) {
  }

  /** The grading JVM's answer, for {@code job}, to the kit's question where its tests are, if it answered. */
  public synchronized Optional<Where> where(Path job) {
    return problem != null ? Optional.empty() : Optional.ofNullable(wheres.get(job.toString()));
  }

  /** The latest report the JVM gave for {@code job} (the report file the job was given), if any and if believed. */
  public synchronized Optional<InFlightReport> latest(Path job) {
    return problem != null ? Optional.empty() : Optional.ofNullable(latest.get(job.toString()));
  }

  /** Why nothing this JVM says is believed, when something it printed claimed to be a verdict and was not one. */
  public synchronized Optional<String> problem() {
    return Optional.ofNullable(problem);
  }

  /** How many whole, signed records arrived. */
  public synchronized long records() {
    return records;
  }

  private static String shortened(String line) {
    return line.length() <= 80 ? line : line.substring(0, 80) + "...";
  }
}
