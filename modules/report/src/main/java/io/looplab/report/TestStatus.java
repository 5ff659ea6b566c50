package io.looplab.report;

/** How one graded test ended, as the report spells it; {@link #PENDING} only while it has not. */
public enum TestStatus {
  PASSED("passed"), FAILED("failed"), ERROR("error"), TIMEOUT("timeout"), SKIPPED("skipped"), PENDING("pending");

  private final String json;

  TestStatus(String json) {
    this.json = json;
  }

  /** The word in the report: passed, failed, error, timeout, skipped. */
  public String json() {
    return json;
  }

  public static TestStatus of(String json) {
    for (TestStatus s : values()) {
      if (s.json.equals(json)) {
        return s;
      }
    }
    throw new IllegalArgumentException("not a test status: " + json);
  }

  @Override
  public String toString() {
    return json;
  }
}
