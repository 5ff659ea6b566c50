package io.looplab.grader.scoring;

import io.vertx.core.json.JsonObject;

/** One graded test in a report: all or nothing, with the message that explains a loss. */
public final class TestReport {

  public static final String PENDING = "pending";

  private final String key;
  private final String name;
  private final int max;
  private String status = PENDING;
  private String message;

  public TestReport(String key, String name, int max) {
    this.key = key;
    this.name = name;
    this.max = max;
  }

  public String key() {
    return key;
  }

  public String name() {
    return name;
  }

  public int max() {
    return max;
  }

  public int points() {
    return "passed".equals(status) ? max : 0;
  }

  /** passed, failed, error, timeout, skipped, or pending while it has not finished. */
  public String status() {
    return status;
  }

  public String message() {
    return message;
  }

  public boolean isPending() {
    return PENDING.equals(status);
  }

  /** Records an outcome; a test with several invocations keeps its first failure. */
  public void record(String newStatus, String newMessage) {
    if (isPending() || "passed".equals(status)) {
      status = newStatus;
      message = newMessage;
    }
  }

  public JsonObject toJson() {
    JsonObject json = new JsonObject().put("name", name).put("points", points()).put("max", max)
        .put("status", status).put("key", key);
    if (message != null) {
      json.put("message", message);
    }
    return json;
  }

  public static TestReport fromJson(JsonObject json) {
    TestReport t = new TestReport(json.getString("key", json.getString("name")), json.getString("name"),
        json.getInteger("max", 0));
    t.status = json.getString("status", PENDING);
    t.message = json.getString("message");
    return t;
  }
}
