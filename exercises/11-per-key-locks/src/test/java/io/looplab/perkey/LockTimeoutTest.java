package io.looplab.perkey;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Points;
import io.looplab.grader.sync.Signal;
import io.looplab.grader.testkit.Await;
import io.looplab.grader.testkit.DeployedService;
import io.looplab.grader.testkit.WarmUp;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

import java.util.concurrent.TimeUnit;

import static io.looplab.grader.testkit.Checks.require;
import static io.looplab.perkey.HttpOffice.answerOf;
import static io.looplab.perkey.HttpOffice.book;
import static io.looplab.perkey.Limits.BUSY_ANSWER_MILLIS;
import static io.looplab.perkey.Limits.SHORT_LOCK_MILLIS;
import static io.looplab.perkey.Limits.WAIT;
import static io.looplab.perkey.Limits.WAIT_MILLIS;

/**
 * The ticket office over HTTP, with a short lock timeout: a booking stuck behind a held payment answers 503 instead
 * of hanging, and the bookings after it still get their turn.
 */
@GradedVertxTest
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@Order(4)
@DisplayName("11 Per-key locks: a booking that waits too long for the lock answers 503")
class LockTimeoutTest {

  /** Nothing here is graded: see {@link WarmUp}. */
  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(WarmUp::webRoundTrip);
  }

  @Test
  @Order(5)
  @Points(4)
  @DisplayName("a booking that waits longer than the lock timeout gets HTTP 503 with Retry-After, never a hang, "
      + "and the event's next booking still gets its turn")
  void lockTimeoutAnswers503(Vertx vertx) {
    HeldPayments payments = new HeldPayments(new Signal());
    DeployedService service = HttpOffice.deploy(vertx, payments, SHORT_LOCK_MILLIS);
    try {
      Future<HttpResponse<Buffer>> first = book(service, "jazz");
      if (!payments.signal.await(() -> payments.calls() >= 1, WAIT_MILLIS)) {
        throw new AssertionFailedError("POST /events/jazz/bookings did not reach the payment service within "
            + WAIT_MILLIS + " ms (answer: " + answerOf(first) + ").");
      }

      long started = System.nanoTime();
      Future<HttpResponse<Buffer>> second = book(service, "jazz");
      second.onComplete(ar -> payments.signal.fire());
      payments.signal.await(() -> second.isComplete() || payments.calls() > 1, BUSY_ANSWER_MILLIS);
      long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
      if (payments.calls() > 1) {
        throw new AssertionFailedError("While the first booking of jazz was paying, a second booking of jazz did "
            + "not wait for the lock: it went on to ask for a payment too (" + payments.charges() + "). Bookings of "
            + "the same event must run one at a time, from the read of the seats sold to the write.");
      }
      if (!second.isComplete()) {
        throw new AssertionFailedError("While the first booking of jazz was paying, a second POST "
            + "/events/jazz/bookings was still waiting for an answer after " + BUSY_ANSWER_MILLIS + " ms, although "
            + "the lock timeout is " + SHORT_LOCK_MILLIS + " ms. A booking must give up waiting for the lock after "
            + "the timeout the constructor received (lockTimeoutMillis), not after Vert.x's default of 10 s or "
            + "never: a caller who gets no answer cannot even retry.");
      }
      HttpResponse<Buffer> busy = Await.result(second, WAIT, "");
      require(busy.statusCode() == 503, "While the first booking of jazz was paying, a second booking of jazz "
          + "waited for the lock and answered " + busy.statusCode() + " with the body " + busy.bodyAsString()
          + ". When the lock wait times out, fail the booking with new EventBusyException(eventId, "
          + "lockTimeoutMillis): the office answers that with 503 and Retry-After, which tells the caller to try "
          + "again, while any other failure reads as a failed payment.");
      require("1".equals(busy.getHeader("Retry-After")), "The 503 answer should carry Retry-After: 1 (the office "
          + "adds it for EventBusyException); it had " + busy.getHeader("Retry-After") + ".");
      // A lower bound only: a timer never fires early, so a correct solution can never fail this.
      require(elapsedMillis >= SHORT_LOCK_MILLIS * 3 / 4, "The second booking of jazz was refused with 503 after "
          + elapsedMillis + " ms, before the lock timeout of " + SHORT_LOCK_MILLIS + " ms had passed. A booking "
          + "that finds its event busy waits for its turn, up to the lock timeout; it is not refused at once.");
      require(payments.calls() == 1, "The booking that was refused with 503 (\"nothing was booked\") still asked "
          + "for a payment: " + payments.charges() + ". A booking that gave up waiting must not run.");

      payments.gates(1).get(0).open(null);
      HttpResponse<Buffer> firstAnswer = Await.result(first, WAIT, "The first booking's payment was approved, but "
          + "POST /events/jazz/bookings did not answer within " + WAIT_MILLIS + " ms.");
      assertBooked(firstAnswer, "jazz", 1, "the first booking of jazz", " It released the lock after another "
          + "booking of jazz had timed out waiting for it: does your release hand the lock to a booking that had "
          + "already given up? A booking that times out must leave the line.");
      if (payments.calls() > 1) {
        throw new AssertionFailedError("After the first booking of jazz ended, a payment for "
            + payments.charges().get(1) + " was asked for, though nobody had booked again: the booking that timed "
            + "out (and was answered 503, nothing booked) still ran when its turn came. A booking that gave up "
            + "must leave the line.");
      }

      Future<HttpResponse<Buffer>> third = book(service, "jazz");
      third.onComplete(ar -> payments.signal.fire());
      if (!payments.signal.await(() -> payments.calls() >= 2 || third.isComplete(), WAIT_MILLIS)
          || payments.calls() < 2) {
        throw new AssertionFailedError("After the first booking of jazz ended, a third POST /events/jazz/bookings did "
            + "not get its turn: it " + answerOf(third) + ". The booking that timed out left the lock behind it: "
            + "when the one ahead released the lock, it went to the booking that had given up, and nobody released "
            + "it again. A booking that times out must leave the line.");
      }
      payments.gates(2).get(1).open(null);
      assertBooked(Await.result(third, WAIT, "The third booking's payment was approved, but POST "
          + "/events/jazz/bookings did not answer within " + WAIT_MILLIS + " ms."), "jazz", 2,
          "the third booking of jazz (the second one sold nothing)", "");
    } finally {
      payments.releaseEverything();
    }
  }

  private static void assertBooked(HttpResponse<Buffer> response, String event, int seat, String what,
                                   String hint) {
    JsonObject expected = new JsonObject().put("event", event).put("seat", seat);
    JsonObject body;
    try {
      body = response.bodyAsJsonObject();
    } catch (RuntimeException e) {
      body = null;
    }
    require(response.statusCode() == 200 && expected.equals(body), what + " should answer 200 " + expected.encode()
        + ", but answered " + response.statusCode() + " " + response.bodyAsString() + "." + hint);
  }
}
