package io.looplab.report;

/** How the grading of one exercise ended, as the report spells it. */
public enum ExerciseStatus {
  PASSED("passed"), FAILED("failed"), COMPILE_ERROR("compile-error"), TIMEOUT("timeout"), CRASHED("crashed"),
  /** Not graded: the grader or the machine failed, not the code (a warm-up out of time, say). Never lost points. */
  ERROR("error");

  private final String json;

  ExerciseStatus(String json) {
    this.json = json;
  }

  /** The word in the report: passed, failed, compile-error, timeout, crashed, error. */
  public String json() {
    return json;
  }

  public static ExerciseStatus of(String json) {
    for (ExerciseStatus s : values()) {
      if (s.json.equals(json)) {
        return s;
      }
    }
    throw new IllegalArgumentException("not an exercise status: " + json);
  }

  @Override
  public String toString() {
    return json;
  }
}
