package io.looplab.grader.races.scene;

/** How the checks in flight are answered: all in one task of the counter's context, or each left to finish first. */
public enum Pace {
  TOGETHER("all checks in flight answered in one go"),
  ONE_AT_A_TIME("each answer finished before the next");

  private final String words;

  Pace(String words) {
    this.words = words;
  }

  /** The pace in a test's name and a message: "all checks in flight answered in one go". */
  public String words() {
    return words;
  }
}
