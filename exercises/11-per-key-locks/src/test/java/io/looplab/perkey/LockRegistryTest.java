package io.looplab.perkey;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Points;
import io.looplab.grader.races.Fresh;
import io.looplab.grader.races.LocalLockNames;
import io.looplab.grader.sync.Signal;
import io.looplab.grader.testkit.OnContext;
import io.looplab.grader.testkit.WarmUp;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.looplab.grader.testkit.Checks.require;
import static io.looplab.perkey.Limits.PATIENT_LOCK_MILLIS;
import static io.looplab.perkey.Limits.SHORT_LOCK_MILLIS;
import static io.looplab.perkey.Limits.WAIT;

/**
 * What the lock bookkeeping keeps once bookings have ended: for each way a booking can end, bookings of a thousand
 * events, then a look at registrySize() and at the Vert.x local locks still held.
 */
@GradedVertxTest
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@Order(5)
@DisplayName("11 Per-key locks: the lock registry forgets idle events")
class LockRegistryTest {

  /** Events booked for each way a booking can end, in the registry test: ten times the idle entries tolerated. */
  private static final int ROUND_EVENTS = 1_000;
  /**
   * Bookings started per event-loop task. Small, so that no task of the test's own is long: with 100, a correct
   * design on Vert.x local locks (heavier per booking than a map) kept one task on the loop for 52 to 85 ms under
   * load, and the guard blamed it for a stall.
   */
  private static final int REGISTRY_BATCH = 10;
  /** How long one registry round may take; a correct solution needs well under a second, timeouts included. */
  private static final long ROUND_WAIT_MILLIS = 10_000;
  private static final int MAX_IDLE_ENTRIES = 100;

  /** Nothing here is graded: see {@link WarmUp}. */
  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(WarmUp::webRoundTrip);
  }

  @Test
  @Order(6)
  @Points(4)
  @DisplayName("after bookings of " + ROUND_EVENTS + " different events end, however they end (booked, payment "
      + "declined, payment client threw, sold out, no such event, timed out waiting), the lock registry is (nearly) "
      + "empty and no lock is held")
  void registryStaysBounded(Vertx vertx) {
    Context loop = vertx.getOrCreateContext();
    List<String> leaks = new ArrayList<>();
    List<String> clean = new ArrayList<>();
    for (Ending ending : Ending.values()) {
      String leak = registryRound(vertx, loop, ending);
      (leak == null ? clean : leaks).add(leak == null ? ending.story : leak);
    }
    require(leaks.isEmpty(), "Bookings of " + ROUND_EVENTS + " different events were made for each way a booking "
        + "can end, and once they had all ended, the lock bookkeeping still kept what those events had used: "
        + String.join("; ", leaks) + (clean.isEmpty() ? "" : " (after the bookings that " + String.join(", ", clean)
        + ", nothing was left)") + ". A ticket office sells new events every day: what it keeps per event must go "
        + "when the last booking that holds or waits for the event's lock leaves, however it leaves: booked, "
        + "failed, refused or timed out. Remove an event's entry then, and release its lock on every path (at most "
        + MAX_IDLE_ENTRIES + " idle entries are tolerated, say as a small cache).");
  }

  /** The ways a booking can end: each gets events of its own in {@link #registryStaysBounded}. */
  enum Ending {
    BOOKED("were booked and paid for"),
    DECLINED("failed because the payment was declined"),
    THREW("failed because the payment client threw"),
    SOLD_OUT("were refused because the event was sold out"),
    UNKNOWN("were refused because there is no such event"),
    TIMED_OUT("waited behind another booking of the same event and gave up after the lock timeout");

    final String story;

    Ending(String story) {
      this.story = story;
    }
  }

  /**
   * Books {@link #ROUND_EVENTS} events of a fresh SeatBookings, each ending as {@code ending} says, waits until they
   * have all ended, and answers what they left behind: null if nothing, or a phrase for the message. For a timeout,
   * each event gets two bookings: the first one's payment is held until the second has given up.
   */
  private static String registryRound(Vertx vertx, Context loop, Ending ending) {
    String prefix = ending.name().toLowerCase().replace('_', '-') + "-";
    Map<String, Promise<Void>> heldPayments = new HashMap<>(); // used on the loop only
    PaymentService payments = (eventId, seat) -> {
      Promise<Void> answer = Promise.promise();
      switch (ending) {
        case THREW -> throw new IllegalStateException("payment client is not connected");
        case DECLINED -> Vertx.currentContext().runOnContext(v -> answer.fail(new PaymentDeclinedException(
            "card declined")));
        // The first booking's payment waits until the second booking has ended. A second booking that did not
        // wait for the lock is paid at once: the round is about what is left behind, sameEventIsBookedOneAtATime
        // grades the waiting.
        case TIMED_OUT -> {
          if (heldPayments.putIfAbsent(eventId, answer) != null) {
            Vertx.currentContext().runOnContext(v -> answer.complete());
          }
        }
        default -> Vertx.currentContext().runOnContext(v -> answer.complete());
      }
      return answer.future();
    };
    long lockTimeout = ending == Ending.TIMED_OUT ? SHORT_LOCK_MILLIS : PATIENT_LOCK_MILLIS;
    SeatBookings bookings = OnContext.call(loop, () -> new SeatBookings(vertx, payments, lockTimeout), WAIT);
    Set<String> lockedBefore = LocalLockNames.heldOrNone(vertx).keySet();
    int perEvent = ending == Ending.TIMED_OUT ? 2 : 1;
    int expected = ROUND_EVENTS * perEvent;
    AtomicInteger ended = new AtomicInteger();
    Signal allEnded = new Signal();
    for (int from = 0; from < ROUND_EVENTS; from += REGISTRY_BATCH) {
      int start = from;
      OnContext.run(loop, () -> {
        for (int i = start; i < start + REGISTRY_BATCH; i++) {
          String event = prefix + i;
          if (ending != Ending.UNKNOWN) {
            bookings.openEvent(event, ending == Ending.SOLD_OUT ? 0 : 1);
          }
          for (int b = 0; b < perEvent; b++) {
            boolean second = b == 1;
            Future<Integer> booking;
            try {
              booking = bookings.book(Fresh.copyOf(event));
            } catch (RuntimeException e) {
              booking = Future.failedFuture(e);
            }
            booking.onComplete(ar -> {
              if (second) {
                // The second booking of the event has given up: now the first one's payment may go through.
                Promise<Void> first = heldPayments.remove(event);
                if (first != null) {
                  first.tryComplete();
                }
              }
              ended.incrementAndGet();
              allEnded.fire();
            });
          }
        }
      }, WAIT);
    }
    if (!allEnded.await(() -> ended.get() >= expected, ROUND_WAIT_MILLIS)) {
      return "of " + expected + " bookings that " + ending.story + ", only " + ended.get() + " had ended after "
          + ROUND_WAIT_MILLIS + " ms (the usual causes: a lock that is never released, or a wait for the lock "
          + "that never times out)";
    }
    Office.settle(loop);
    int size;
    try {
      size = OnContext.call(loop, bookings::registrySize, WAIT);
    } catch (UnsupportedOperationException e) {
      throw new AssertionFailedError("registrySize() threw " + e + ". Return how many events your lock bookkeeping "
          + "holds an entry for right now (0 if you keep none yourself, say because you use Vert.x's local locks).",
          e);
    }
    Map<String, Integer> locked = new TreeMap<>(LocalLockNames.heldOrNone(vertx));
    locked.keySet().removeAll(lockedBefore);
    List<String> left = new ArrayList<>();
    if (size > MAX_IDLE_ENTRIES) {
      left.add("registrySize() was " + size);
    }
    if (!locked.isEmpty()) {
      left.add(locked.size() + " Vert.x local lock(s) were still held, such as '" + locked.keySet().iterator().next()
          + "': a booking that ends this way never releases its lock, and its event takes no booking ever again");
    }
    return left.isEmpty() ? null : "after " + expected + " bookings that " + ending.story + ", "
        + String.join(", and ", left);
  }
}
