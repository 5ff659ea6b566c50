package io.looplab.cli.session;

import io.looplab.report.ExerciseResult;
import io.looplab.report.ExerciseStatus;
import io.looplab.report.Standing;
import io.looplab.report.TestResult;
import io.looplab.report.TestStatus;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.Instant;

/** One verdict as the session protocol's results body (docs/session-protocol.md): what the instructor sees of it. */
public final class ResultBody {

  /** A message longer than this is cut: a results body stays far below the server's 64 KiB. */
  static final int MESSAGE_LIMIT = 2000;

  private ResultBody() {
  }

  /**
   * The body for {@code report}: {@code untouched} when the learner's src/main is still the stub (the standing is
   * then not-started, not failing), {@code hintsUsed} from the hint ladder, {@code source} "check" or "watch",
   * {@code id} unique to this verdict (a resend of it is stored once).
   */
  public static JsonObject of(ExerciseResult report, boolean untouched, int hintsUsed, String source, Instant at,
      String id) {
    JsonArray tests = new JsonArray();
    JsonObject firstFailure = null;
    // Code that does not compile fails every test with the compiler's message: no test is "the first to fix", and
    // the live page tells repeated compile errors by the standing.
    boolean compiled = report.status() != ExerciseStatus.COMPILE_ERROR;
    for (TestResult t : report.tests()) {
      // A test that never ran (the code did not compile, the JVM died first) was skipped, in the protocol's words.
      String status = t.status() == TestStatus.PENDING ? TestStatus.SKIPPED.json() : t.status().json();
      tests.add(new JsonObject().put("name", t.name()).put("status", status).put("points", t.points())
          .put("max", t.max()));
      if (compiled && firstFailure == null && !t.passed() && !t.isPending()) {
        String message = t.message() != null ? t.message() : report.message();
        firstFailure = new JsonObject().put("test", t.name()).put("message", capped(message));
      }
    }
    return new JsonObject().put("exercise", report.id()).put("title", report.title())
        .put("points", report.points()).put("max", report.max()).put("status", report.status().toString())
        .put("standing", Standing.of(report, untouched).word()).put("tests", tests)
        .put("firstFailure", firstFailure).put("hintsUsed", hintsUsed).put("at", at.toString())
        .put("source", source).put("id", id);
  }

  private static String capped(String message) {
    if (message == null) {
      return "";
    }
    return message.length() <= MESSAGE_LIMIT ? message : message.substring(0, MESSAGE_LIMIT - 1) + "…";
  }
}
