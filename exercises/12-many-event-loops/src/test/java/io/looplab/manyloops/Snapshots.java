package io.looplab.manyloops;

import io.vertx.core.json.JsonObject;
import org.opentest4j.AssertionFailedError;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** Reading a snapshot, {@code {"total": 3, "pages": {"/home": 2, "/about": 1}}}, with a message for a wrong shape. */
final class Snapshots {

  private Snapshots() {
  }

  static long totalOf(JsonObject snapshot, String when) {
    Object total = snapshot.getValue("total");
    if (!(total instanceof Number number)) {
      throw new AssertionFailedError("The snapshot " + when + " has no number under \"total\": "
          + snapshot.encode() + ". Answer {\"total\": <views>, \"pages\": {<page>: <views>, ...}}.");
    }
    return number.longValue();
  }

  /** A page's count in a snapshot; 0 for a page it does not list yet. */
  static long pageCountOf(JsonObject snapshot, String page) {
    Object pages = snapshot.getValue("pages");
    if (!(pages instanceof JsonObject byPage)) {
      throw new AssertionFailedError("The snapshot has no object under \"pages\": " + snapshot.encode()
          + ". Answer {\"total\": <views>, \"pages\": {<page>: <views>, ...}}.");
    }
    Object count = byPage.getValue(page);
    if (count != null && !(count instanceof Number)) {
      throw new AssertionFailedError("The snapshot counts " + count + " for " + page + ", where a number was "
          + "expected: " + snapshot.encode());
    }
    return count == null ? 0 : ((Number) count).longValue();
  }

  static String totalsOf(List<JsonObject> before, List<JsonObject> after) {
    List<String> totals = new ArrayList<>();
    for (int i = 0; i < before.size(); i++) {
      totals.add("total " + totalOf(before.get(i), "before") + " then " + totalOf(after.get(i), "after"));
    }
    return totals.stream().collect(Collectors.joining("; ", "[", "]"));
  }
}
