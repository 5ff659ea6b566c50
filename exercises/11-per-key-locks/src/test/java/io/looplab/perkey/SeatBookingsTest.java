package io.looplab.perkey;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Points;
import io.looplab.grader.leaks.ShutdownCheck;
import io.looplab.grader.races.CollidingKeys;
import io.looplab.grader.races.Fresh;
import io.looplab.grader.races.LocalLockNames;
import io.looplab.grader.races.PendingTimers;
import io.looplab.grader.sync.EveryOrder;
import io.looplab.grader.sync.Gate;
import io.looplab.grader.sync.GatedDependency;
import io.looplab.grader.sync.Signal;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.opentest4j.AssertionFailedError;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * Grades SeatBookings by what its bookings do on a real event loop. The payment service is a fake whose every call
 * waits until this test approves or declines it, so "two bookings are paying at once", "the second one starts only
 * after the first has ended" and "the first one ends first" are seen happening, never guessed from timings.
 *
 * <p>Every call of SeatBookings is made on one event-loop context, as the verticle does. The fakes are nested in
 * this class, so that the guard never mistakes their frames for the learner's code.
 */
@GradedVertxTest
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@DisplayName("11 Per-key locks: one lock per event, released on every path, with a timeout, forgotten when idle")
class SeatBookingsTest {

  /**
   * How long the test waits for something a correct solution does within milliseconds: a payment call, the end of
   * a booking, an HTTP answer. Only a broken solution ever waits it out.
   */
  private static final long WAIT_MILLIS = 3_000;

  /**
   * How long the test waits before it concludes that something does NOT happen: that the bookings of other events
   * never reach the payment service while one event's payment is held. A correct solution makes those calls in the
   * same event-loop turn as the first one, or a few turns later: microseconds. Only a broken solution pays this.
   */
  private static final long NOT_HAPPENING_MILLIS = 500;

  /** The lock timeout where bookings should wait for their turn: longer than any test runs. */
  private static final long PATIENT_LOCK_MILLIS = 10_000;

  /**
   * The lock timeout of the tests that look for a lock left held: there, the next booking never waits for a lock
   * that works, and one left held shows up after this time as EventBusyException, instead of as a hang.
   */
  private static final long LEAK_LOCK_MILLIS = 1_000;

  /** The lock timeout of the timeout test; the tests never sleep through it, a timer of the solution does. */
  private static final long SHORT_LOCK_MILLIS = 200;

  /** How long the timeout test waits for the 503: fifteen times the lock timeout. */
  private static final long BUSY_ANSWER_MILLIS = 3_000;

  /** Events booked for each way a booking can end, in the registry test: ten times the idle entries tolerated. */
  private static final int ROUND_EVENTS = 1_000;
  private static final int REGISTRY_BATCH = 100;
  /** How long one registry round may take; a correct solution needs well under a second, timeouts included. */
  private static final long ROUND_WAIT_MILLIS = 10_000;
  private static final int MAX_IDLE_ENTRIES = 100;

  /**
   * Event-loop turns the test lets pass before it checks that a booking did not move on: a solution's own hops
   * (a lock granted on a later turn, a promise chained through the context) finish within them. It is a drain of
   * the loop's queue, not a sleep.
   */
  private static final int SETTLE_TURNS = 5;

  /**
   * Three different events whose ids have the same hashCode(), length and first letter: a scheme that shares locks
   * between keys by hashing (lock striping, a registry keyed by the hash code) puts all three on one lock.
   */
  private static final List<String> THREE_EVENTS = CollidingKeys.withPrefix("gala-", 3);

  /** Three events whose hash codes differ: only to tell a shared lock from a striped one in a failure message. */
  private static final List<String> PLAIN_EVENTS = List.of("jazz", "opera", "ballet");

  /**
   * Warms the JVM up before the first graded test, so that the guard judges the code and not the JVM's first steps.
   * The first server socket a JVM opens initialises {@code sun.net.NetProperties}, which reads a file: on an event
   * loop, the blocking-call detector would stop that read and break the JDK's socket classes for good. And the first
   * {@code listen}, request and JSON body take 100 to 200 ms of class loading, which the stall detector could
   * blame on the learner. This uses a verticle of the test's own; nothing here is graded.
   */
  @BeforeAll
  static void warmUpTheJvm() throws Exception {
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      socket.getLocalPort();
    }
    Vertx vertx = Vertx.vertx();
    try {
      WarmUpVerticle verticle = new WarmUpVerticle();
      await(vertx.deployVerticle(verticle), 20_000, "The warm-up verticle did not deploy.");
      WebClient client = WebClient.create(vertx);
      await(client.post(verticle.port, "localhost", "/events/warm/bookings").send(), 20_000,
          "The warm-up request got no answer.");
    } finally {
      await(vertx.close(), 20_000, "The warm-up Vert.x instance did not close.");
    }
  }

  /** The test's own verticle for {@link #warmUpTheJvm()}: the same Vert.x Web path as the ticket office. */
  static final class WarmUpVerticle extends VerticleBase {
    private volatile int port;

    @Override
    public Future<?> start() {
      Router router = Router.router(vertx);
      router.post("/events/:id/bookings").handler(ctx -> Future.succeededFuture(1)
          .onSuccess(seat -> ctx.json(new JsonObject().put("event", ctx.pathParam("id")).put("seat", seat))));
      return vertx.createHttpServer().requestHandler(router).listen(0).onSuccess(server -> port = server.actualPort());
    }
  }

  // ----------------------------------------------------------------------------------------------------------------

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
        office.loop.settle();
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
      int left = office.loop.call(() -> office.bookings.seatsLeft("jazz"));
      require(left == 0, "jazz has 3 seats and 3 were booked, so seatsLeft(\"jazz\") should be 0, but it is " + left
          + ": a sale was lost.");
      office.loop.settle();
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
      office.loop.settle();
      return office.payments.calls() == 1;
    } finally {
      office.releaseAndAwaitEnd(bookings);
    }
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
      int left = office.loop.call(() -> office.bookings.seatsLeft("opera"));
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
      int left = office.loop.call(() -> office.bookings.seatsLeft("ballet"));
      require(left == 2, "A payment that threw sells nothing: ballet should still have 2 seats left, but has "
          + left + ".");

      Booking second = office.book("ballet", "booking #2");
      office.awaitTurn(second, 1, "the payment service threw for booking #1");
      office.payments.gates(1).get(0).open(null);
      office.awaitEnded(second, "Its payment was approved");
      require(Integer.valueOf(1).equals(second.seat()), "Booking #2 for ballet should have booked seat 1 (booking #1 "
          + "sold nothing), but it " + second.outcome() + ".");
    } finally {
      office.releaseEverything();
    }
  }

  @Test
  @Order(5)
  @Points(4)
  @DisplayName("a booking that waits longer than the lock timeout gets HTTP 503 with Retry-After, never a hang, "
      + "and the event's next booking still gets its turn")
  void lockTimeoutAnswers503(Vertx vertx) {
    HeldPayments payments = new HeldPayments(new Signal());
    Service service = deploy(vertx, payments, SHORT_LOCK_MILLIS);
    try {
      Future<HttpResponse<Buffer>> first = service.book("jazz");
      if (!payments.signal.await(() -> payments.calls() >= 1, WAIT_MILLIS)) {
        throw new AssertionFailedError("POST /events/jazz/bookings did not reach the payment service within "
            + WAIT_MILLIS + " ms (answer: " + answerOf(first) + ").");
      }

      long started = System.nanoTime();
      Future<HttpResponse<Buffer>> second = service.book("jazz");
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
      HttpResponse<Buffer> busy = await(second, WAIT_MILLIS, "");
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
      HttpResponse<Buffer> firstAnswer = await(first, WAIT_MILLIS, "The first booking's payment was approved, but "
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

      Future<HttpResponse<Buffer>> third = service.book("jazz");
      third.onComplete(ar -> payments.signal.fire());
      if (!payments.signal.await(() -> payments.calls() >= 2 || third.isComplete(), WAIT_MILLIS)
          || payments.calls() < 2) {
        throw new AssertionFailedError("After the first booking of jazz ended, a third POST /events/jazz/bookings did "
            + "not get its turn: it " + answerOf(third) + ". The booking that timed out left the lock behind it: "
            + "when the one ahead released the lock, it went to the booking that had given up, and nobody released "
            + "it again. A booking that times out must leave the line.");
      }
      payments.gates(2).get(1).open(null);
      assertBooked(await(third, WAIT_MILLIS, "The third booking's payment was approved, but POST "
          + "/events/jazz/bookings did not answer within " + WAIT_MILLIS + " ms."), "jazz", 2,
          "the third booking of jazz (the second one sold nothing)", "");
    } finally {
      payments.releaseEverything();
    }
  }

  @Test
  @Order(6)
  @Points(4)
  @DisplayName("after bookings of " + ROUND_EVENTS + " different events end, however they end (booked, payment "
      + "declined, payment client threw, sold out, no such event, timed out waiting), the lock registry is (nearly) "
      + "empty and no lock is held")
  void registryStaysBounded(Vertx vertx) {
    Loop loop = new Loop(vertx);
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
  private static String registryRound(Vertx vertx, Loop loop, Ending ending) {
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
    SeatBookings bookings = loop.call(() -> new SeatBookings(vertx, payments, lockTimeout));
    Set<String> lockedBefore = LocalLockNames.heldOrNone(vertx).keySet();
    int perEvent = ending == Ending.TIMED_OUT ? 2 : 1;
    int expected = ROUND_EVENTS * perEvent;
    AtomicInteger ended = new AtomicInteger();
    Signal allEnded = new Signal();
    for (int from = 0; from < ROUND_EVENTS; from += REGISTRY_BATCH) {
      int start = from;
      loop.call(() -> {
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
        return null;
      });
    }
    if (!allEnded.await(() -> ended.get() >= expected, ROUND_WAIT_MILLIS)) {
      return "of " + expected + " bookings that " + ending.story + ", only " + ended.get() + " had ended after "
          + ROUND_WAIT_MILLIS + " ms (the usual causes: a lock that is never released, or a wait for the lock "
          + "that never times out)";
    }
    loop.settle();
    int size;
    try {
      size = loop.call(bookings::registrySize);
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

  @Test
  @Order(7)
  @Points(3)
  @DisplayName("undeploying the office after bookings, one of them timed out, leaves no server, timer or thread")
  void undeployLeavesNothingRunning(Vertx vertx) {
    HeldPayments payments = new HeldPayments(new Signal());
    Service service = deploy(vertx, payments, SHORT_LOCK_MILLIS);
    List<Future<HttpResponse<Buffer>>> answers = new ArrayList<>();
    try {
      answers.add(service.book("jazz"));
      if (!payments.signal.await(() -> payments.calls() >= 1, WAIT_MILLIS)) {
        throw new AssertionFailedError("POST /events/jazz/bookings did not reach the payment service within "
            + WAIT_MILLIS + " ms (answer: " + answerOf(answers.get(0)) + ").");
      }
      // While it pays, a second booking waits for the lock and times out: whatever the solution uses to time out
      // a wait has been started once, and must be gone after undeploy.
      Future<HttpResponse<Buffer>> waiting = service.book("jazz");
      answers.add(waiting);
      try {
        await(waiting, BUSY_ANSWER_MILLIS, "");
      } catch (AssertionFailedError notAnsweredYet) {
        // Not graded here: lockTimeoutAnswers503 grades the timeout. The test only needs the wait to have begun.
      }
    } finally {
      payments.releaseEverything();
    }
    await(Future.join(answers), WAIT_MILLIS, "Every payment was approved, but the bookings were not all answered "
        + "within " + WAIT_MILLIS + " ms: " + answers.stream().map(SeatBookingsTest::answerOf).toList() + ".");

    ShutdownCheck.assertCleanUndeploy(vertx, service.deploymentId());
  }

  // ----------------------------------------------------------------------------------------------------------------

  /** One charge the payment service was asked for. */
  record Charge(String eventId, int seat) {
    @Override
    public String toString() {
      return eventId + " seat " + seat;
    }
  }

  /** A payment refusal from the fake provider. */
  static final class PaymentDeclinedException extends RuntimeException {
    PaymentDeclinedException(String message) {
      super(message);
    }
  }

  /**
   * A payment service whose every call waits until the test approves ({@code open}) or declines ({@code fail}) it,
   * through a {@link GatedDependency}. It can also be told to throw on its next call, as a client that is not
   * configured does.
   */
  static final class HeldPayments implements PaymentService {

    final GatedDependency<Charge, Void> gated = new GatedDependency<>();
    final Signal signal;
    private volatile RuntimeException throwNext;
    private volatile boolean approveEverything;
    private final AtomicInteger throwsDone = new AtomicInteger();

    HeldPayments(Signal signal) {
      this.signal = signal;
    }

    @Override
    public Future<Void> authorize(String eventId, int seat) {
      RuntimeException toThrow = throwNext;
      if (toThrow != null) {
        throwNext = null;
        throwsDone.incrementAndGet();
        signal.fire();
        throw toThrow;
      }
      if (approveEverything) {
        return Future.succeededFuture();
      }
      Future<Void> answer = gated.apply(new Charge(eventId, seat));
      signal.fire();
      return answer;
    }

    void throwOnNextCall(RuntimeException error) {
      throwNext = error;
    }

    int throwsDone() {
      return throwsDone.get();
    }

    /** Calls that are waiting for, or got, the test's answer; a call that threw is not one of them. */
    int calls() {
      return gated.calls();
    }

    List<Gate<Void>> gates(int count) {
      return gated.awaitCalls(count);
    }

    List<Charge> charges() {
      return gated.calledSoFar().stream().map(g -> (Charge) g.argument()).toList();
    }

    List<String> events() {
      return charges().stream().map(Charge::eventId).toList();
    }

    /**
     * Approves every pending call, and every later one at once: for the end of a test, so that a failed test
     * leaves no booking, and no lock, waiting on the event loop.
     */
    void releaseEverything() {
      approveEverything = true;
      for (Gate<Void> gate : gated.calledSoFar()) {
        if (gate.isPending()) {
          try {
            gate.open(null);
          } catch (RuntimeException e) {
            // Answered meanwhile, or its loop is gone: nothing left to free.
          }
        }
      }
    }
  }

  /**
   * One event-loop context on which every call of SeatBookings is made, as in a verticle. The test thread hands it
   * work and waits for the answer; the test never runs SeatBookings on its own thread.
   */
  static final class Loop {

    private final Context context;

    Loop(Vertx vertx) {
      this.context = vertx.getOrCreateContext();
    }

    <T> T call(Supplier<T> action) {
      CompletableFuture<T> done = new CompletableFuture<>();
      context.runOnContext(v -> {
        try {
          done.complete(action.get());
        } catch (Throwable t) {
          done.completeExceptionally(t);
        }
      });
      try {
        return done.get(WAIT_MILLIS, TimeUnit.MILLISECONDS);
      } catch (ExecutionException e) {
        if (e.getCause() instanceof RuntimeException r) {
          throw r;
        }
        if (e.getCause() instanceof Error err) {
          throw err;
        }
        throw new AssertionFailedError("The event loop failed the call: " + e.getCause(), e.getCause());
      } catch (TimeoutException e) {
        throw new AssertionFailedError("The event loop did not run the test's call within " + WAIT_MILLIS + " ms: is "
            + "it blocked?");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionFailedError("interrupted", e);
      }
    }

    /** Lets {@link #SETTLE_TURNS} turns of the loop pass, so that anything already on its way has happened. */
    void settle() {
      for (int i = 0; i < SETTLE_TURNS; i++) {
        call(() -> null);
      }
    }
  }

  /** One booking the test made, and how it ended. */
  static final class Booking {

    final String label;
    final CompletableFuture<Integer> result = new CompletableFuture<>();
    volatile RuntimeException thrown;

    Booking(String label) {
      this.label = label;
    }

    boolean isDone() {
      return result.isDone();
    }

    /** The seat booked, or null while waiting or after a failure. */
    Integer seat() {
      return result.isDone() && !result.isCompletedExceptionally() ? result.join() : null;
    }

    Throwable failure() {
      if (!result.isCompletedExceptionally()) {
        return null;
      }
      try {
        result.join();
        return null;
      } catch (CompletionException e) {
        return e.getCause();
      }
    }

    /** What happened to it, as a sentence's verb phrase: "booked seat 2", "is still waiting", ... */
    String outcome() {
      if (thrown != null) {
        return "threw " + thrown + " from book() instead of returning a failed future";
      }
      if (!result.isDone()) {
        return "is still waiting";
      }
      Integer seat = seat();
      return seat != null ? "booked seat " + seat : "failed with " + failure();
    }
  }

  /** A SeatBookings on its own event-loop context, with held payments: the unit of most tests. */
  static final class Office {

    final Signal signal = new Signal();
    final HeldPayments payments = new HeldPayments(signal);
    final Loop loop;
    final SeatBookings bookings;
    final Vertx vertx;

    Office(Vertx vertx, long lockTimeoutMillis, Map<String, Integer> events) {
      this.vertx = vertx;
      this.loop = new Loop(vertx);
      this.bookings = loop.call(() -> {
        SeatBookings b = new SeatBookings(vertx, payments, lockTimeoutMillis);
        events.forEach(b::openEvent);
        return b;
      });
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
      loop.call(() -> {
        Future<Integer> future;
        try {
          future = bookings.book(eventId);
        } catch (RuntimeException e) {
          booking.thrown = e;
          booking.result.completeExceptionally(e);
          signal.fire();
          return null;
        }
        if (future == null) {
          booking.result.completeExceptionally(new IllegalStateException("book() returned null, not a future"));
          signal.fire();
          return null;
        }
        future.onComplete(ar -> {
          if (ar.succeeded()) {
            booking.result.complete(ar.result());
          } else {
            booking.result.completeExceptionally(ar.cause());
          }
          signal.fire();
        });
        return null;
      });
      return booking;
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
        return loop.call(bookings::registrySize);
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
  }

  /** "'a' (with 1 booking waiting), 'b'": the held local locks, for a message. */
  private static String describeHeld(Map<String, Integer> held) {
    return held.entrySet().stream().map(e -> "'" + e.getKey() + "'" + (e.getValue() > 0
        ? " (with " + e.getValue() + " caller(s) waiting for it)" : "")).collect(Collectors.joining(", "));
  }

  /** The deployed office, and a client to call it with. */
  private record Service(String deploymentId, int port, WebClient client) {

    Future<HttpResponse<Buffer>> book(String eventId) {
      return client.post(port, "localhost", "/events/" + eventId + "/bookings").send();
    }
  }

  private static Service deploy(Vertx vertx, PaymentService payments, long lockTimeoutMillis) {
    BookingVerticle verticle = new BookingVerticle(payments, Map.of("jazz", 10), lockTimeoutMillis);
    String id = await(vertx.deployVerticle(verticle), WAIT_MILLIS, "Deploying BookingVerticle did not finish within "
        + WAIT_MILLIS + " ms.");
    WebClient client = WebClient.create(vertx, new WebClientOptions(), new PoolOptions().setHttp1MaxSize(16));
    return new Service(id, verticle.port(), client);
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

  private static String answerOf(Future<HttpResponse<Buffer>> request) {
    if (!request.isComplete()) {
      return "is still waiting for an answer";
    }
    if (request.failed()) {
      return "failed: " + request.cause();
    }
    return "answered " + request.result().statusCode() + " " + request.result().bodyAsString();
  }

  private static String outcomes(List<Booking> bookings) {
    Map<String, String> all = new LinkedHashMap<>();
    bookings.forEach(b -> all.put(b.label, b.outcome()));
    return all.entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining("; "));
  }

  /** The messages of {@code error} and its causes, joined: a wrapped failure still says what went wrong. */
  private static String causes(Throwable error) {
    StringBuilder text = new StringBuilder();
    for (Throwable t = error; t != null; t = t.getCause()) {
      text.append(t).append(" / ");
    }
    return text.toString();
  }

  private static boolean isA(Throwable error, Class<? extends Throwable> type) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (type.isInstance(t)) {
        return true;
      }
    }
    return false;
  }

  /** Fails with {@code message} alone: it already says what was expected and what happened. */
  private static void require(boolean condition, String message) {
    if (!condition) {
      throw new AssertionFailedError(message);
    }
  }

  /** Waits on the test's own thread, never on an event loop; {@code ifLate} explains what a timeout means. */
  private static <T> T await(Future<T> future, long millis, String ifLate) {
    try {
      return future.toCompletionStage().toCompletableFuture().get(millis, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new AssertionFailedError(ifLate);
    } catch (ExecutionException e) {
      throw new AssertionFailedError("The request failed before any answer came back: " + e.getCause(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionFailedError("interrupted", e);
    }
  }
}
