package io.looplab.report;

/**
 * Where a learner stands on one exercise, at a glance: the colour of a cell in the class grid, live or static. The
 * report's own {@link ExerciseStatus} says how a grading ended; a standing also tells an untouched stub (nothing to
 * teach about yet) from a real attempt, and a partial score from none, which an instructor reads first.
 */
public enum Standing {
  /** No result yet, or the code is the untouched stub: the learner has not started this exercise. */
  NOT_STARTED("not-started", "not started", "·"),
  /** Graded, and no point earned. */
  FAILING("failing", "failing", "✗"),
  /** Graded, some points earned but not all. */
  PARTIAL("partial", "partial", "◐"),
  /** Every point. */
  FULL_MARKS("full-marks", "full marks", "✓"),
  /** The learner's code does not compile. */
  COMPILE_ERROR("compile-error", "compile error", "C"),
  /** The learner's code ended the test JVM early. */
  CRASHED("crashed", "crashed", "X"),
  /** The learner's code ran into the exercise's time limit. */
  TIMED_OUT("timed-out", "timed out", "T"),
  /** Not graded: the grader or the machine failed, not the code. Never lost points. */
  GRADER_ERROR("grader-error", "grader error", "?");

  private final String word;
  private final String inWords;
  private final String symbol;

  Standing(String word, String inWords, String symbol) {
    this.word = word;
    this.inWords = inWords;
    this.symbol = symbol;
  }

  /**
   * The symbol a grid's cell carries besides its colour, so that the grid reads in grey, on a projector, to anyone:
   * one per standing, the same on the live page and in the class report.
   */
  public String symbol() {
    return symbol;
  }

  /** The word in CSV, JSON and CSS class names: not-started, failing, partial, full-marks, ... */
  public String word() {
    return word;
  }

  /** The same for a person: "not started", "compile error", ... */
  public String inWords() {
    return inWords;
  }

  /**
   * The standing of {@code result}; {@code untouched} says that the graded code is the exercise's stub as handed out
   * (the caller knows that from the sources, the result cannot). A null result is not started.
   */
  public static Standing of(ExerciseResult result, boolean untouched) {
    if (result == null) {
      return NOT_STARTED;
    }
    switch (result.status()) {
      case COMPILE_ERROR:
        return COMPILE_ERROR;
      case CRASHED:
        return CRASHED;
      case TIMEOUT:
        return TIMED_OUT;
      case ERROR:
        return GRADER_ERROR;
      default:
        break;
    }
    if (untouched) {
      return NOT_STARTED;
    }
    if (result.isComplete()) {
      return FULL_MARKS;
    }
    return result.points() > 0 ? PARTIAL : FAILING;
  }

  public static Standing of(String word) {
    for (Standing s : values()) {
      if (s.word.equals(word)) {
        return s;
      }
    }
    throw new IllegalArgumentException("not a standing: " + word);
  }
}
