package io.looplab.cli.classroom;

import io.looplab.cli.engine.Exercise;

import io.looplab.report.ExerciseStatus;

import java.util.ArrayList;
import java.util.List;

/**
 * class.csv: a row per learner (named by their folder), a column of points per exercise, the total, the maximum,
 * and a note for a folder that could not be graded. Fields are quoted as RFC 4180 says, so a spreadsheet opens it
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

  static String quoted(String cell) {
    boolean needs = cell.contains(",") || cell.contains("\"") || cell.contains("\n") || cell.contains("\r");
    return needs ? "\"" + cell.replace("\"", "\"\"") + "\"" : cell;
  }
}
