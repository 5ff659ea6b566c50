package io.looplab.perkey;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Points;
import io.looplab.grader.races.Fresh;
import io.looplab.grader.races.LocalLockNames;
import io.looplab.grader.races.PendingTimers;
import io.looplab.grader.sync.Gate;
import io.looplab.grader.testkit.WarmUp;
import io.vertx.core.Vertx;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static io.looplab.grader.testkit.Checks.require;
import static io.looplab.perkey.Booking.isA;
import static io.looplab.perkey.Booking.outcomes;
import static io.looplab.perkey.Limits.PATIENT_LOCK_MILLIS;
import static io.looplab.perkey.Limits.WAIT_MILLIS;
import static io.looplab.perkey.Office.describeHeld;

/**
 * Bookings of one event run one at a time. The fake payment service holds every payment until this test approves it
 * ({@link HeldPayments}), so "the second booking reaches the payment only after the first has ended" is seen
 * happening, never guessed from timings. When two bookings do pay at once, the message says which of the usual
 * mistakes it is, from what the test can see of the locks.
 */
@GradedVertxTest
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@Order(2)
@DisplayName("11 Per-key locks: the same event is booked one booking at a time")
class SameEventTest {

  /** Nothing here is graded: see {@link WarmUp}. */
  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(WarmUp::webRoundTrip);
  }

  @Test
  @Order(2)
  @Points(5)
  @DisplayName("three bookings of the same event run one at a time: each reaches the payment only after the one "
      + "before it has ended, and pays for the next seat")
  void sameEventIsBookedOneAtATime(Vertx vertx) {
    Office office = new Office(vertx, PATIENT_LOCK_MILLIS, Map.of("jazz", 3));
    try {
      List<Booking> bookings = new ArrayList<>();
      for (int i = 1; i <= 3; i++) {
        bookings.add(office.book("jazz", "booking #" + i));
      }
      for (int k = 1; k <= 3; k++) {
        office.awaitPaymentCalls(k, WAIT_MILLIS, bookings);
        office.settle();
        if (office.payments.calls() > k) {
          throw twoBookingsPaidAtOnce(vertx, office, bookings, k);
        }
        for (Booking booking : bookings) {
          if (booking.isDone() && booking.seat() == null) {
            throw new AssertionFailedError(booking.label + " of jazz " + booking.outcome() + " while another "
                + "booking of jazz was paying. " + (isA(booking.failure(), EventBusyException.class)
                ? "The lock timeout is " + PATIENT_LOCK_MILLIS + " ms: a booking that finds its event busy waits "
                    + "for its turn, up to the lock timeout; it is not refused at once."
                : "jazz has 3 seats and every payment is approved: it should have waited for its turn, and booked "
                    + "a seat."));
          }
        }
        Gate<Void> gate = office.payments.gates(k).get(k - 1);
        Charge charge = (Charge) gate.argument();
        require(charge.seat() == k, (k == 1 ? "No seat of jazz was sold yet, so the first booking should pay for "
            + "seat 1" : (k - 1) + " seat(s) of jazz were sold when the next booking started, so it should pay for "
            + "seat " + k) + ", but it asked to pay for seat " + charge.seat() + ": it read the seats sold before "
            + "the booking ahead of it wrote them. Payments asked for: " + office.payments.charges() + ". The next "
            + "booking of an event must start after the one before it ended.");
        gate.open(null);
        int ended = k;
        if (!office.signal.await(() -> bookings.stream().filter(Booking::isDone).count() >= ended, WAIT_MILLIS)) {
          throw new AssertionFailedError("The payment for seat " + k + " of jazz was approved, but no booking "
              + "ended within " + WAIT_MILLIS + " ms (so far, " + outcomes(bookings) + ").");
        }
        List<Integer> seats = bookings.stream().filter(Booking::isDone).map(Booking::seat).toList();
        require(seats.size() == k && seats.containsAll(IntStream.rangeClosed(1, k).boxed().toList()),
            "After " + k + " payments for jazz were approved, one at a time, the bookings should have sold seats "
                + "1 to " + k + " one each, but so far, " + outcomes(bookings) + ".");
      }
      int left = office.seatsLeft("jazz");
      require(left == 0, "jazz has 3 seats and 3 were booked, so seatsLeft(\"jazz\") should be 0, but it is " + left
          + ": a sale was lost.");
      office.settle();
      List<String> timers = PendingTimers.of(vertx);
      require(timers.isEmpty(), "All three bookings of jazz had ended and nobody waited for the lock any more, yet "
          + timers.size() + " timer(s) set by your code were still scheduled: " + timers + ". Bookings #2 and #3 "
          + "each waited for their turn with a timeout, then got the lock when the booking before them ended: when "
          + "a waiting booking gets the lock, cancel its timeout timer (vertx.cancelTimer). Left scheduled, each "
          + "timer keeps the booking in memory for the whole lock timeout, and then fires against a booking that "
          + "is running or done: the hand-over must end the wait, timer included.");
    } finally {
      office.releaseEverything();
    }
  }

  /**
   * The message for two bookings of one event paying at once, with what the test can see of the locks: their names,
   * the registry, and whether the bookings do wait for each other when they pass the very same String object.
   */
  private static AssertionFailedError twoBookingsPaidAtOnce(Vertx vertx, Office office, List<Booking> bookings,
                                                            int k) {
    List<Charge> charges = office.payments.charges();
    Map<String, Integer> held = LocalLockNames.heldOrNone(vertx);
    int registry = office.registrySizeOrUnknown();
    String story = "Two bookings of jazz were paying at the same time: while the payment for seat "
        + charges.get(k - 1).seat() + " was still held by the test, another booking asked to pay for seat "
        + charges.get(k).seat() + " (payments asked for so far: " + charges + "). Each booking reads the seats "
        + "sold, awaits the payment, then writes: two of them in flight at once read the same count, and sell the "
        + "same seat twice.";
    office.releaseAndAwaitEnd(bookings);
    if (held.size() >= 2) {
      return new AssertionFailedError(story + " Each of them held a lock, but not the same one: the Vert.x local "
          + "locks held were " + describeHeld(held) + ", " + held.size() + " lock names for one event. A lock keeps "
          + "out only the callers that ask for the same name, so a name made anew for every request (with a "
          + "counter, a time or a random id in it) excludes nobody. Name the lock after the event alone, such as "
          + "\"seat-bookings:\" + eventId.");
    }
    boolean identity = sameObjectBookingsWait(vertx);
    String registrySaid = registry >= 2 ? " Your registry held " + registry + " entries while only jazz was being "
        + "booked: each booking had an entry, and a lock, of its own." : "";
    if (identity) {
      return new AssertionFailedError(story + registrySaid + " The two bookings passed equal ids that are different "
          + "String objects, as decoded requests do; when two bookings passed the very same String object, they "
          + "did wait for each other. So the lock is found by the key's identity (==, an IdentityHashMap, "
          + "synchronized on the String), not by its value: look it up in a HashMap keyed by the id, which "
          + "compares keys with equals().");
    }
    if (registry >= 2) {
      return new AssertionFailedError(story + registrySaid + " A lock keeps out only the callers that find the "
          + "same one: key the registry by the event id alone, and let the next booking of the event find the "
          + "entry that is there.");
    }
    return new AssertionFailedError(story + " While they paid, " + (held.isEmpty() ? "no Vert.x local lock was "
        + "held" : "the Vert.x local locks held were " + describeHeld(held)) + ", and registrySize() "
        + (registry < 0 ? "threw" : "said " + registry) + ". Hold the event's lock from the read to the write. The "
        + "usual causes: no lock at all; a lock released before the booking's future ends (right after "
        + "bookHoldingTheLock returns, instead of in a callback on its future); synchronized, whose block ends "
        + "when the method returns, long before the payment answers.");
  }

  /** For a failure message only: do two bookings of jazz wait for each other when they pass one String object? */
  private static boolean sameObjectBookingsWait(Vertx vertx) {
    Office office = new Office(vertx, PATIENT_LOCK_MILLIS, Map.of("jazz", 3));
    String jazz = Fresh.copyOf("jazz");
    List<Booking> bookings = new ArrayList<>();
    try {
      bookings.add(office.bookWithThisObject(jazz, "booking #1"));
      bookings.add(office.bookWithThisObject(jazz, "booking #2"));
      if (!office.payments.gated.arrivesWithin(1, WAIT_MILLIS)) {
        return false;
      }
      office.settle();
      return office.payments.calls() == 1;
    } finally {
      office.releaseAndAwaitEnd(bookings);
    }
  }
}
