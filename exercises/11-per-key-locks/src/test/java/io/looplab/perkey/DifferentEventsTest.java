package io.looplab.perkey;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Points;
import io.looplab.grader.races.CollidingKeys;
import io.looplab.grader.sync.EveryOrder;
import io.looplab.grader.sync.Gate;
import io.looplab.grader.testkit.WarmUp;
import io.vertx.core.Vertx;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.TestFactory;
import org.opentest4j.AssertionFailedError;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static io.looplab.grader.testkit.Checks.require;
import static io.looplab.perkey.Booking.outcomes;
import static io.looplab.perkey.Limits.PATIENT_LOCK_MILLIS;
import static io.looplab.perkey.Limits.WAIT_MILLIS;

/**
 * Bookings of different events run side by side. The payment service is a fake whose every call waits until this
 * test approves it ({@link HeldPayments}), so "three bookings are paying at once" and "each ends as soon as its own
 * payment does" are seen happening, never guessed from timings. Every call of SeatBookings is made on one event-loop
 * context, as the verticle does ({@link Office}).
 */
@GradedVertxTest
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@Order(1)
@DisplayName("11 Per-key locks: different events are booked at the same time")
class DifferentEventsTest {

  /**
   * How long the test waits before it concludes that something does NOT happen: that the bookings of other events
   * never reach the payment service while one event's payment is held. A correct solution makes those calls in the
   * same event-loop turn as the first one, or a few turns later: microseconds. Only a broken solution pays this.
   */
  private static final long NOT_HAPPENING_MILLIS = 500;

  /**
   * Three different events whose ids have the same hashCode(), length and first letter: a scheme that shares locks
   * between keys by hashing (lock striping, a registry keyed by the hash code) puts all three on one lock.
   */
  private static final List<String> THREE_EVENTS = CollidingKeys.withPrefix("gala-", 3);

  /** Three events whose hash codes differ: only to tell a shared lock from a striped one in a failure message. */
  private static final List<String> PLAIN_EVENTS = List.of("jazz", "opera", "ballet");

  /** Nothing here is graded: see {@link WarmUp}. */
  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(WarmUp::webRoundTrip);
  }

  @TestFactory
  @Order(1)
  @Points(5)
  @DisplayName("bookings of three different events (#1 gala-AaAa, #2 gala-AaBB, #3 gala-BBAa, ids with one hash "
      + "code) pay at the same time, and each ends as soon as its own payment does, whatever the order the payments "
      + "finish in")
  Stream<DynamicTest> differentEventsAreBookedAtTheSameTime(Vertx vertx) {
    return EveryOrder.of(THREE_EVENTS.size(), order -> {
      Office office = new Office(vertx, PATIENT_LOCK_MILLIS, tenSeatsEach(THREE_EVENTS));
      try {
        List<Booking> bookings = new ArrayList<>();
        for (String event : THREE_EVENTS) {
          bookings.add(office.book(event, "the booking for " + event));
        }
        office.awaitPaymentCalls(1, WAIT_MILLIS, bookings);
        if (!office.signal.await(() -> office.payments.calls() >= THREE_EVENTS.size(), NOT_HAPPENING_MILLIS)) {
          List<String> paying = office.payments.events();
          List<String> stuck = THREE_EVENTS.stream().filter(e -> !paying.contains(e)).toList();
          String story = "Bookings of different events waited for each other: three bookings, for "
              + String.join(", ", THREE_EVENTS) + ", were made at once, and while the test held the payment for "
              + paying + ", the bookings for " + stuck + " had still not reached the payment service after "
              + NOT_HAPPENING_MILLIS + " ms (so far, " + outcomes(bookings) + "). The events share no seats, "
              + "so nothing should stop them.";
          office.releaseAndAwaitEnd(bookings);
          if (plainEventsPayTogether(vertx)) {
            throw new AssertionFailedError(story + " These three ids are different strings with the same "
                + "hashCode() (" + CollidingKeys.sharedHashCode(THREE_EVENTS) + "), the same length and the same "
                + "first letter, while three bookings of " + String.join(", ", PLAIN_EVENTS) + ", whose hash codes "
                + "differ, did pay at the same time. So events share a lock when their hash codes collide: lock "
                + "striping (a fixed set of locks picked by key.hashCode() % N, as Guava's Striped does) or a "
                + "registry keyed by the hash code makes unrelated events queue behind each other's payments. Give "
                + "each event a lock of its own, found by its id with equals(): a map from the id to its lock, or a "
                + "Vert.x local lock named after the id.");
          }
          throw new AssertionFailedError(story + " Bookings of " + String.join(", ", PLAIN_EVENTS) + ", ids with "
              + "different hash codes, waited for each other the same way: every event takes the same lock. Use "
              + "one lock per event, not one lock for everything. With a single lock, every event queues behind "
              + "the slowest payment of any event.");
        }
        Map<String, Gate<Void>> gateOf = new HashMap<>();
        for (Gate<Void> gate : office.payments.gates(THREE_EVENTS.size())) {
          Charge charge = (Charge) gate.argument();
          require(charge.seat() == 1, "The first booking of " + charge.eventId() + " asked to pay for seat "
              + charge.seat() + ", but no seat of it was sold yet: it should pay for seat 1.");
          gateOf.put(charge.eventId(), gate);
        }
        require(gateOf.keySet().containsAll(THREE_EVENTS), "Three bookings were made, for " + THREE_EVENTS
            + ", but the payments asked for were " + office.payments.events() + ": one for each event is expected.");

        List<String> approved = new ArrayList<>();
        for (int index : order) {
          String event = THREE_EVENTS.get(index);
          gateOf.get(event).open(null);
          approved.add(event);
          Booking booking = bookings.get(index);
          List<String> held = THREE_EVENTS.stream().filter(e -> !approved.contains(e)).toList();
          if (!office.signal.await(booking::isDone, WAIT_MILLIS)) {
            throw new AssertionFailedError("The payment for " + event + " was approved, but its booking had not "
                + "ended " + WAIT_MILLIS + " ms later, while the payments for " + held + " were still held. A "
                + "booking must end as soon as its own payment does, not when the other events' payments do.");
          }
          require(Integer.valueOf(1).equals(booking.seat()), "The booking for " + event + " should have booked "
              + "seat 1 once its payment was approved, but it " + booking.outcome() + ".");
          for (String other : held) {
            Booking pending = bookings.get(THREE_EVENTS.indexOf(other));
            require(!pending.isDone(), "The booking for " + other + " ended (it " + pending.outcome() + ") while "
                + "its payment was still held by the test. A booking ends when its payment answers, not before.");
          }
        }
      } finally {
        office.releaseEverything();
      }
    });
  }

  private static Map<String, Integer> tenSeatsEach(List<String> events) {
    Map<String, Integer> seats = new LinkedHashMap<>();
    events.forEach(event -> seats.put(event, 10));
    return seats;
  }

  /** For a failure message only: do bookings of three events with different hash codes reach the payment together? */
  private static boolean plainEventsPayTogether(Vertx vertx) {
    Office office = new Office(vertx, PATIENT_LOCK_MILLIS, tenSeatsEach(PLAIN_EVENTS));
    List<Booking> bookings = new ArrayList<>();
    try {
      for (String event : PLAIN_EVENTS) {
        bookings.add(office.book(event, "the booking for " + event));
      }
      return office.signal.await(() -> office.payments.calls() >= PLAIN_EVENTS.size(), NOT_HAPPENING_MILLIS);
    } finally {
      office.releaseAndAwaitEnd(bookings);
    }
  }
}
