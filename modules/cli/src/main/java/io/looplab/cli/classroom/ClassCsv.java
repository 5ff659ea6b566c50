package io.looplab.cli.classroom;

import io.looplab.cli.engine.Exercise;
import io.looplab.cli.engine.UsageError;

import io.looplab.report.ExerciseStatus;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * class.csv: a row per learner (named by their folder), a column of points per exercise, the total, the maximum,
 * a note for a folder that could not be graded, then a column per exercise of where the learner stands on it (the
 * {@link io.looplab.report.Standing} word: not-started, failing, partial, full-marks, ...). The status columns come
 * last so that a sheet or script that reads the first columns by place reads what it always did. Fields are quoted as RFC 4180 says, so a spreadsheet opens it
 * whatever a folder is called.
 */
final class ClassCsv {

  private ClassCsv() {
  }

  static String render(List<Exercise> exercises, List<LearnerResult> results) {
    StringBuilder csv = new StringBuilder();
    List<String> header = new ArrayList<>(List.of("learner"));
    exercises.forEach(e -> header.add(e.id()));
    header.addAll(List.of("total", "max", "note"));
    exercises.forEach(e -> header.add(e.id() + " status"));
    row(csv, header);
    for (LearnerResult r : results) {
      List<String> cells = new ArrayList<>(List.of(r.learner()));
      List<String> notGraded = new ArrayList<>();
      for (Exercise e : exercises) {
        // an exercise the grader failed to grade (twice) is "error", never a number that looks like lost points
        cells.add(r.exercise(e.id()).map(x -> {
          if (x.status() == ExerciseStatus.ERROR) {
            notGraded.add(e.id());
            return "error";
          }
          return String.valueOf(x.points());
        }).orElse(""));
      }
      cells.add(r.isGraded() ? String.valueOf(r.board().points()) : "");
      cells.add(r.isGraded() ? String.valueOf(r.board().max()) : "");
      String note = r.problem() == null ? "" : r.problem();
      if (!notGraded.isEmpty()) {
        note = (note.isEmpty() ? "" : note + "; ") + "not graded (no point lost; the report says why; grade again): "
            + String.join(" ", notGraded);
      }
      cells.add(note);
      exercises.forEach(e -> cells.add(r.standing(e.id()).word()));
      row(csv, cells);
    }
    return csv.toString();
  }

  private static void row(StringBuilder csv, List<String> cells) {
    for (int i = 0; i < cells.size(); i++) {
      csv.append(i == 0 ? "" : ",").append(quoted(cells.get(i)));
    }
    csv.append("\r\n");
  }

  /** What a later run needs of a row: whose it is, and its note (why the learner was not graded, if they were not). */
  record Row(String learner, String note) {
  }

  /** The rows of a class.csv this class wrote (any columns added later are ignored); a file of another shape is refused. */
  static List<Row> read(Path file) {
    List<List<String>> records;
    try {
      records = records(Files.readString(file));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (records.isEmpty() || !records.get(0).get(0).equals("learner") || !records.get(0).contains("note")) {
      throw new UsageError(file + ": not a class report's class.csv (its first line is not learner,...,note)");
    }
    int note = records.get(0).indexOf("note");
    List<Row> rows = new ArrayList<>();
    for (List<String> r : records.subList(1, records.size())) {
      if (!r.get(0).isEmpty()) {
        rows.add(new Row(r.get(0), note < r.size() ? r.get(note) : ""));
      }
    }
    return rows;
  }

  /** RFC 4180: fields split by commas, records by line ends; a quoted field may hold both, and "" is a quote. */
  static List<List<String>> records(String text) {
    List<List<String>> records = new ArrayList<>();
    List<String> fields = new ArrayList<>();
    StringBuilder field = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (quoted) {
        if (c == '"' && i + 1 < text.length() && text.charAt(i + 1) == '"') {
          field.append('"');
          i++;
        } else if (c == '"') {
          quoted = false;
        } else {
          field.append(c);
        }
      } else if (c == '"') {
        quoted = true;
      } else if (c == ',') {
        fields.add(field.toString());
        field.setLength(0);
      } else if (c == '\r' || c == '\n') {
        if (c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') {
          i++;
        }
        fields.add(field.toString());
        field.setLength(0);
        records.add(fields);
        fields = new ArrayList<>();
      } else {
        field.append(c);
      }
    }
    if (field.length() > 0 || !fields.isEmpty()) {
      fields.add(field.toString());
      records.add(fields);
    }
    return records;
  }

  static String quoted(String cell) {
    boolean needs = cell.contains(",") || cell.contains("\"") || cell.contains("\n") || cell.contains("\r");
    return needs ? "\"" + cell.replace("\"", "\"\"") + "\"" : cell;
  }
}
