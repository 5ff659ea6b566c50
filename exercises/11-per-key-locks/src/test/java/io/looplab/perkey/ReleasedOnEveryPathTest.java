package io.looplab.perkey;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Points;
import io.looplab.grader.testkit.WarmUp;
import io.vertx.core.Vertx;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.looplab.grader.testkit.Checks.require;
import static io.looplab.perkey.Booking.causes;
import static io.looplab.perkey.Booking.isA;
import static io.looplab.perkey.Limits.LEAK_LOCK_MILLIS;
import static io.looplab.perkey.Limits.WAIT_MILLIS;

/**
 * A booking that fails releases its event, however it fails: a declined payment, a sold-out refusal, a payment
 * client that throws instead of failing its future. The lock timeout here is {@link Limits#LEAK_LOCK_MILLIS}, so a
 * lock left held shows up as the next booking's EventBusyException, not as a hang.
 */
@GradedVertxTest
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@Order(3)
@DisplayName("11 Per-key locks: a booking releases its event on every path, failures included")
class ReleasedOnEveryPathTest {

  /** Nothing here is graded: see {@link WarmUp}. */
  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(WarmUp::webRoundTrip);
  }

  @Test
  @Order(3)
  @Points(4)
  @DisplayName("a payment that fails, and a sold-out refusal, release the event: the next booking gets its turn")
  void failedPaymentReleasesTheEvent(Vertx vertx) {
    Office office = new Office(vertx, LEAK_LOCK_MILLIS, Map.of("opera", 1));
    try {
      Booking first = office.book("opera", "booking #1");
      office.awaitPaymentCalls(1, WAIT_MILLIS, List.of(first));
      office.payments.gates(1).get(0).fail(new PaymentDeclinedException("card declined"));
      office.awaitEnded(first, "Its payment was declined");
      require(first.seat() == null && causes(first.failure()).contains("card declined"), "The payment of booking #1 "
          + "for opera was declined (\"card declined\"), so the booking should fail with that error, but it "
          + first.outcome() + ".");
      int left = office.seatsLeft("opera");
      require(left == 1, "A declined payment sells nothing: opera should still have 1 seat left, but has " + left + ".");

      Booking second = office.book("opera", "booking #2");
      office.awaitTurn(second, 2, "the payment of booking #1 was declined");
      office.payments.gates(2).get(1).open(null);
      office.awaitEnded(second, "Its payment was approved");
      require(Integer.valueOf(1).equals(second.seat()), "Booking #2 for opera should have booked seat 1, the only "
          + "one, but it " + second.outcome() + ".");

      Booking third = office.book("opera", "booking #3");
      office.awaitEnded(third, "opera has no seat left");
      require(isA(third.failure(), SoldOutException.class), "opera's only seat is sold, so booking #3 should fail "
          + "with SoldOutException, but it " + third.outcome() + ".");
      Booking fourth = office.book("opera", "booking #4");
      office.awaitEnded(fourth, "opera has no seat left");
      if (isA(fourth.failure(), EventBusyException.class)) {
        throw new AssertionFailedError("Booking #3 for opera was refused as sold out, and booking #4 then waited "
            + LEAK_LOCK_MILLIS + " ms for the lock and gave up (" + fourth.failure() + "): the sold-out refusal "
            + "never released the lock (by then, " + office.lockEvidence() + "). Every way out of a booking must "
            + "release it, refusals included.");
      }
      require(isA(fourth.failure(), SoldOutException.class), "opera's only seat is sold, so booking #4 should fail "
          + "with SoldOutException, but it " + fourth.outcome() + ".");
      require(office.payments.calls() == 2, "Bookings #3 and #4 for opera found it sold out, so they should not "
          + "ask for a payment, but the payments asked for were " + office.payments.charges() + ".");
    } finally {
      office.releaseEverything();
    }
  }

  @Test
  @Order(4)
  @Points(4)
  @DisplayName("a payment service that throws instead of failing its future makes the booking fail, and releases "
      + "the event: the next booking gets its turn")
  void throwingPaymentReleasesTheEvent(Vertx vertx) {
    Office office = new Office(vertx, LEAK_LOCK_MILLIS, Map.of("ballet", 2));
    try {
      office.payments.throwOnNextCall(new IllegalStateException("payment client is not connected"));
      Booking first = office.book("ballet", "booking #1");
      if (first.thrown != null) {
        throw new AssertionFailedError("book(\"ballet\") threw " + first.thrown + " at its caller, when the payment "
            + "service threw. A method that returns a Future reports every failure through it: its caller only "
            + "listens there. Catch the exception and return Future.failedFuture(e) instead.", first.thrown);
      }
      office.awaitEnded(first, "The payment service threw when asked to authorise it");
      require(office.payments.throwsDone() == 1, "The test set the payment service to throw, but booking #1 for "
          + "ballet never called it; it " + first.outcome() + ".");
      require(first.seat() == null && causes(first.failure()).contains("payment client is not connected"),
          "The payment service threw IllegalStateException(\"payment client is not connected\"), so booking #1 for "
              + "ballet should fail with that error, but it " + first.outcome() + ".");
      int left = office.seatsLeft("ballet");
      require(left == 2, "A payment that threw sells nothing: ballet should still have 2 seats left, but has "
          + left + ".");

      Booking second = office.book("ballet", "booking #2");
      office.awaitTurn(second, 1, "the payment service threw for booking #1" + office.payments.thrownThrough.inWords());
      office.payments.gates(1).get(0).open(null);
      office.awaitEnded(second, "Its payment was approved");
      require(Integer.valueOf(1).equals(second.seat()), "Booking #2 for ballet should have booked seat 1 (booking #1 "
          + "sold nothing), but it " + second.outcome() + ".");
    } finally {
      office.releaseEverything();
    }
  }
}
