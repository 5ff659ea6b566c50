package io.looplab.grader.internal.scoring;

import io.vertx.core.json.JsonObject;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One graded test in a report: all or nothing, with the message that explains a loss. Its {@link #key()} is JUnit's
 * unique id of the test method, which tells tests apart inside the kit; the report contract does not carry it.
 */
public final class TestReport {

  private final String key;
  private final String name;
  private final int max;
  private TestStatus status = TestStatus.PENDING;
  private String message;
  /** The grader or the machine failed before the test could judge the code: an error, never a lost point. */
  private boolean notGraded;

  public TestReport(String key, String name, int max) {
    this.key = key;
    this.name = name;
    this.max = max;
  }

  public String key() {
    return key;
  }

  /** Whether this is the test method {@code method} (a plain test, a test factory or a parameterized test). */
  public boolean isMethod(String method) {
    return key.contains("[method:" + method + "(") || key.contains("[test-factory:" + method + "(")
        || key.contains("[test-template:" + method + "(");
  }

  public String name() {
    return name;
  }

  public int max() {
    return max;
  }

  public int points() {
    return status == TestStatus.PASSED ? max : 0;
  }

  public TestStatus status() {
    return status;
  }

  public String message() {
    return message;
  }

  public boolean isPending() {
    return status == TestStatus.PENDING;
  }

  public boolean passed() {
    return status == TestStatus.PASSED;
  }

  /** Whether the test could not judge the code because the grader or the machine failed (status error). */
  public boolean notGraded() {
    return notGraded;
  }

  /**
   * Records that the grader, not the code, failed this test: a harness step (a warm-up, the test's own fixture) ran
   * out of time or broke. Status error, with {@code reason}; the kit grades such an exercise again.
   */
  public void recordNotGraded(String reason) {
    if (isPending() || passed()) {
      status = TestStatus.ERROR;
      message = capped("Not graded: " + reason);
      notGraded = true;
    }
  }

  /**
   * The longest message a report carries. The kit's own explanations reach about 1,350 characters (09's and 12's
   * races, with their evidence); past this, the text is someone's runaway output (an exception whose message is a
   * whole file, say), and the report must stay readable and small.
   */
  public static final int MAX_MESSAGE = 1_500;

  /** Records an outcome; a test with several invocations keeps its first failure. */
  public void record(TestStatus newStatus, String newMessage) {
    if (isPending() || passed()) {
      status = newStatus;
      message = capped(newMessage);
    }
  }

  /** The mark that ends a message cut by {@link #capped}. */
  private static final Pattern CUT_MARK = Pattern.compile(" … \\[truncated: \\d+ more characters]$");

  /**
   * {@code message} cut at {@link #MAX_MESSAGE} characters, with a mark that says how much was cut. A message cut
   * already (the kit reads back what the grading JVM wrote) stays as it is.
   */
  static String capped(String message) {
    if (message == null || message.length() <= MAX_MESSAGE) {
      return message;
    }
    Matcher mark = CUT_MARK.matcher(message);
    if (mark.find() && mark.start() <= MAX_MESSAGE) {
      return message;
    }
    int end = MAX_MESSAGE;
    if (Character.isHighSurrogate(message.charAt(end - 1))) {
      end--;                                              // never split a character in two
    }
    return message.substring(0, end) + " … [truncated: " + (message.length() - end) + " more characters]";
  }

  /** The contract's fields: name, points, max, status and any message. */
  public JsonObject toJson() {
    JsonObject json = new JsonObject().put("name", name).put("points", points()).put("max", max)
        .put("status", status.json());
    if (message != null) {
      json.put("message", message);
    }
    return json;
  }

  /** The contract's fields and the key, as the grading JVM hands them to the kit. */
  JsonObject toInternalJson() {
    return toJson().put("key", key).put("notGraded", notGraded);
  }

  static TestReport fromJson(JsonObject json) {
    TestReport t = new TestReport(json.getString("key", json.getString("name")), json.getString("name"),
        json.getInteger("max", 0));
    t.status = TestStatus.of(json.getString("status", TestStatus.PENDING.json()));
    t.message = capped(json.getString("message"));
    t.notGraded = json.getBoolean("notGraded", false);
    return t;
  }
}
