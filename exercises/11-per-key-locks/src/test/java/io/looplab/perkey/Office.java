package io.looplab.perkey;

import io.looplab.grader.races.Fresh;
import io.looplab.grader.races.LocalLockNames;
import io.looplab.grader.sync.Signal;
import io.looplab.grader.testkit.OnContext;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.opentest4j.AssertionFailedError;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static io.looplab.perkey.Booking.isA;
import static io.looplab.perkey.Booking.outcomes;
import static io.looplab.perkey.Limits.LEAK_LOCK_MILLIS;
import static io.looplab.perkey.Limits.SETTLE_TURNS;
import static io.looplab.perkey.Limits.WAIT;
import static io.looplab.perkey.Limits.WAIT_MILLIS;

/**
 * A SeatBookings on an event-loop context of its own, with held payments: the unit of most tests. Every call of
 * SeatBookings is made on that context, as the verticle makes them; the test never runs SeatBookings on its own
 * thread.
 */
final class Office {

  final Signal signal = new Signal();
  final HeldPayments payments = new HeldPayments(signal);
  final Context loop;
  final SeatBookings bookings;
  final Vertx vertx;

  Office(Vertx vertx, long lockTimeoutMillis, Map<String, Integer> events) {
    this.vertx = vertx;
    this.loop = vertx.getOrCreateContext();
    this.bookings = OnContext.call(loop, () -> {
      SeatBookings b = new SeatBookings(vertx, payments, lockTimeoutMillis);
      events.forEach(b::openEvent);
      return b;
    }, WAIT);
  }

  /**
   * Calls book() on the loop, and returns once it has returned there. The id is a String object of its own, equal
   * to {@code eventId}, as a decoded request brings it: two bookings of one event never share the object.
   */
  Booking book(String eventId, String label) {
    return bookWithThisObject(Fresh.copyOf(eventId), label);
  }

  /** Like {@link #book}, but passes {@code eventId} itself: only to tell identity from equality in a message. */
  Booking bookWithThisObject(String eventId, String label) {
    Booking booking = new Booking(label);
    OnContext.run(loop, () -> {
      Future<Integer> future;
      try {
        future = bookings.book(eventId);
      } catch (RuntimeException e) {
        booking.thrown = e;
        booking.result.completeExceptionally(e);
        signal.fire();
        return;
      }
      if (future == null) {
        booking.result.completeExceptionally(new IllegalStateException("book() returned null, not a future"));
        signal.fire();
        return;
      }
      future.onComplete(ar -> {
        if (ar.succeeded()) {
          booking.result.complete(ar.result());
        } else {
          booking.result.completeExceptionally(ar.cause());
        }
        signal.fire();
      });
    }, WAIT);
    return booking;
  }

  /** seatsLeft(eventId), asked on the loop. */
  int seatsLeft(String eventId) {
    return OnContext.call(loop, () -> bookings.seatsLeft(eventId), WAIT);
  }

  /** Lets {@link Limits#SETTLE_TURNS} turns of the loop pass, so that anything already on its way has happened. */
  void settle() {
    settle(loop);
  }

  /** Lets {@link Limits#SETTLE_TURNS} turns of {@code loop} pass: a drain of its queue, not a sleep. */
  static void settle(Context loop) {
    for (int i = 0; i < SETTLE_TURNS; i++) {
      OnContext.run(loop, () -> { }, WAIT);
    }
  }

  /** Waits until {@code n} payments were asked for; fails, saying what the bookings did instead, if not. */
  void awaitPaymentCalls(int n, long millis, List<Booking> bookings) {
    if (!signal.await(() -> payments.calls() >= n, millis)) {
      throw new AssertionFailedError("Only " + payments.calls() + " payment(s) were asked for within " + millis
          + " ms, where " + n + " were expected (so far, " + outcomes(bookings) + "). A booking of an event "
          + "that nobody else is booking should reach the payment at once.");
    }
  }

  /**
   * Waits for {@code booking}, the next of its event, to reach the payment service as call number {@code call}:
   * the booking before it has ended ({@code why}), so its lock must be free.
   */
  void awaitTurn(Booking booking, int call, String why) {
    boolean moved = signal.await(() -> payments.calls() >= call || booking.isDone(), WAIT_MILLIS);
    if (moved && payments.calls() >= call) {
      return;
    }
    if (booking.thrown == null && isA(booking.failure(), EventBusyException.class)) {
      throw new AssertionFailedError("After " + why + ", " + booking.label + " of the same event waited for the "
          + "lock, and gave up after the lock timeout of " + LEAK_LOCK_MILLIS + " ms (" + booking.failure()
          + "): the booking before it ended without releasing the lock (by then, " + lockEvidence() + "). "
          + "Release it however a booking ends, on "
          + "failure as on success: the asynchronous 'finally' is a callback on the booking's future for both "
          + "outcomes (andThen, onComplete, eventually), not onSuccess. And mind work that throws before it "
          + "returns any future at all: there is then no future to hang the release on.");
    }
    throw new AssertionFailedError("After " + why + ", " + booking.label + " of the same event should reach the "
        + "payment at once, as nobody else holds the event, but within " + WAIT_MILLIS + " ms it "
        + booking.outcome() + " (meanwhile, " + lockEvidence() + "). The usual cause: the booking before it ended "
        + "without releasing the lock. Release it however a booking ends, on failure as on success (andThen, "
        + "onComplete, eventually), not only in onSuccess.");
  }

  void awaitEnded(Booking booking, String why) {
    if (!signal.await(booking::isDone, WAIT_MILLIS)) {
      throw new AssertionFailedError(why + ", so " + booking.label + " should have ended, but after "
          + WAIT_MILLIS + " ms it is still waiting (meanwhile, " + lockEvidence() + "). The usual causes: it "
          + "waits for a lock that the booking before it never released, or for a future that nobody completes.");
    }
  }

  void releaseEverything() {
    try {
      payments.releaseEverything();
    } catch (RuntimeException | AssertionError e) {
      // Cleaning up after a failure that is already being reported.
    }
  }

  /**
   * Approves every payment, and waits a little for {@code bookings} to end: before a failure message looks for
   * more evidence with bookings of its own, so that these no longer hold any lock.
   */
  void releaseAndAwaitEnd(List<Booking> bookings) {
    releaseEverything();
    signal.await(() -> bookings.stream().allMatch(Booking::isDone), WAIT_MILLIS);
  }

  /** registrySize(), or -1 if it throws: for a failure message, which must not fail in turn. */
  int registrySizeOrUnknown() {
    try {
      return OnContext.call(loop, bookings::registrySize, WAIT);
    } catch (RuntimeException | AssertionError e) {
      return -1;
    }
  }

  /**
   * What the lock bookkeeping looks like right now, as evidence for a message: the local locks held, by name, and
   * what registrySize() says.
   */
  String lockEvidence() {
    Map<String, Integer> held = LocalLockNames.heldOrNone(vertx);
    int registry = registrySizeOrUnknown();
    return (held.isEmpty() ? "no Vert.x local lock was held" : "the Vert.x local locks held were "
        + describeHeld(held)) + ", and registrySize() " + (registry < 0 ? "threw" : "said " + registry);
  }

  /** "'a' (with 1 booking waiting), 'b'": the held local locks, for a message. */
  static String describeHeld(Map<String, Integer> held) {
    return held.entrySet().stream().map(e -> "'" + e.getKey() + "'" + (e.getValue() > 0
        ? " (with " + e.getValue() + " caller(s) waiting for it)" : "")).collect(Collectors.joining(", "));
  }
}
