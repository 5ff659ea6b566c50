package io.looplab.lostupdate;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Outcome;
import io.looplab.grader.Points;
import io.looplab.grader.leaks.LockCensus;
import io.looplab.grader.leaks.ShutdownCheck;
import io.looplab.grader.sync.EveryOrder;
import io.looplab.grader.sync.Gate;
import io.looplab.grader.sync.GatedDependency;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.SingleThreadEventExecutor;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.opentest4j.AssertionFailedError;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Grades SeatCounter by what its reservations answer and what the count ends at. The availability check is a
 * {@link GatedDependency}: each call waits until this test answers it, so the test itself decides which check
 * answers first, and tries every order, twice: once with every check that is in flight answered in one go (one
 * event-loop task, so that each reservation's continuation has read the count before any of them writes), and once
 * one at a time (each answer, and all it starts, finishes before the next). Every name is decoded afresh for each
 * request, as a real request's would be. Nothing here depends on timing. The one bounded wait,
 * {@link #STUCK_MILLIS}, proves that a reservation is stuck; a correct solution never pays it.
 */
@GradedVertxTest
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@DisplayName("09 Lost update: a seat counter whose reservations await an availability check")
class SeatCounterTest {

  /** How long the test waits for what a correct solution does at once: a call to the check, a reply. */
  private static final long WAIT_SECONDS = 5;

  /**
   * How long a reservation may stay silent, with no check in flight and nothing left for the event loop to run,
   * before the test calls it stuck (in practice: waiting for a lock nobody will release). A correct solution moves on
   * within microseconds of being let in, so only a broken one ever waits this out.
   */
  private static final long STUCK_MILLIS = 1_000;

  /** The error the fake availability service fails with, when a test makes it fail. */
  static final class AvailabilityServiceDown extends RuntimeException {
    AvailabilityServiceDown(String message) {
      super(message, null, false, false);
    }
  }

  private static final String OUTAGE = "the availability service timed out";

  /** What the test's availability client throws, when a test makes it throw instead of failing its future. */
  private static final String CLIENT_CLOSED = "the availability client is closed";

  /**
   * What the test's availability check answers for one person. THROW: the call itself throws, instead of returning
   * a future (a client whose connection is closed does that).
   */
  private enum Answer { YES, NO, FAIL, THROW }

  /** How the checks in flight are answered: all in one event-loop task, or each one left to finish first. */
  private enum Pace {
    TOGETHER("all checks in flight answered in one go"),
    ONE_AT_A_TIME("each answer finished before the next");

    final String words;

    Pace(String words) {
      this.words = words;
    }
  }

  /**
   * Runs, once and with the test's own code only, the paths a reservation takes: a local lock, a chain of futures, a
   * gated call that records its call site, an answer delivered in one go, the lock census. In a cold JVM on a busy
   * machine the first run of those paths loads and interprets enough classes to look like a stall of the learner's
   * code; after this, the learner's first reservation costs what it really costs.
   */
  @BeforeAll
  static void warmUpTheJvm() {
    Vertx vertx = Vertx.vertx();
    try {
      GatedDependency<String, Boolean> gated = new GatedDependency<>();
      Context context = vertx.getOrCreateContext();
      CompletableFuture<Void> started = new CompletableFuture<>();
      context.runOnContext(v -> {
        for (String who : List.of("warm-1", "warm-2")) {
          Future.succeededFuture(who)
              .compose(w -> vertx.sharedData().withLocalLock("looplab.warm-up", () -> gated.apply(w).map(ok -> ok)))
              .transform(done -> Future.succeededFuture(done.succeeded()))
              .andThen(done -> LockCensus.heldLocalLocks(vertx));
        }
        vertx.sharedData().getLocalLockWithTimeout("looplab.warm-up-2", 1_000)
            .compose(lock -> Future.failedFuture(new AvailabilityServiceDown("warm-up")).andThen(done -> lock.release()))
            .otherwise(false);
        started.complete(null);
      });
      started.get(WAIT_SECONDS, TimeUnit.SECONDS);
      Gate.releaseTogether(gated.call(0).opening(true).andThen(() -> io.looplab.grader.sync.CallSite.ofCurrentCall()));
      gated.call(1).fail(new AvailabilityServiceDown("warm-up"));
      LockCensus.heldLocalLocks(vertx);
    } catch (Exception e) {
      // A warm-up that fails changes nothing in the verdicts: the tests say what they find.
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().orTimeout(WAIT_SECONDS, TimeUnit.SECONDS).join();
    }
  }

  // ----------------------------------------------------------------------------------------------------------------

  @Test
  @Order(1)
  @Points(2)
  @DisplayName("one reservation at a time: it waits for the check; a yes takes one seat, a no takes none, and a "
      + "sold-out show answers false")
  void oneReservationAtATime(Vertx vertx) {
    Scene scene = new Scene(vertx, 3);

    scene.reserve("ada");
    Gate<Boolean> ada = scene.awaitCheck(1, "ada");
    scene.settle();
    require(!scene.hasAnswered("ada"), "ada's reservation answered " + scene.outcome("ada") + " while her "
        + "availability check was still in flight. A reservation must wait for the check's answer before it answers.");
    scene.release(ada, Answer.YES);
    scene.assertAnswer("ada", Outcome.of(true), "her check said yes and 3 seats were free");
    scene.assertFreeSeats(2, "one reservation of 3 seats, with the check saying yes");

    scene.reserve("bob");
    scene.release(scene.awaitCheck(2, "bob"), Answer.NO);
    scene.assertAnswer("bob", Outcome.of(false), "his check said no");
    scene.assertFreeSeats(2, "bob's check said no, so his reservation must not take a seat");

    Scene soldOut = new Scene(vertx, 0);
    soldOut.reserve("cyd");
    soldOut.driveToTheEnd(List.of("cyd"), Map.of("cyd", Answer.YES), Pace.ONE_AT_A_TIME);
    soldOut.assertAnswer("cyd", Outcome.of(false), "the show had no free seat");
    soldOut.assertFreeSeats(0, "a show with no free seat");
  }

  @TestFactory
  @Order(2)
  @Points(6)
  @DisplayName("two overlapping reservations (#1 ada, #2 bob) both take a seat: 10 free seats become 8, whichever "
      + "check answers first")
  Stream<DynamicTest> overlappingReservationsLoseNoUpdate(Vertx vertx) {
    List<String> callers = List.of("ada", "bob");
    return racing(callers.size(), (order, pace) -> {
      Scene scene = new Scene(vertx, 10);
      scene.reserveTogether(callers);
      scene.driveToTheEnd(priority(callers, order), Map.of("ada", Answer.YES, "bob", Answer.YES), pace);

      scene.assertAnswer("ada", Outcome.of(true), "her check said yes and seats were free");
      scene.assertAnswer("bob", Outcome.of(true), "his check said yes and seats were free");
      scene.assertNoUpdateLost();
      scene.assertFreeSeats(8, "two reservations of 10 seats, both told yes");
    });
  }

  @TestFactory
  @Order(3)
  @Points(5)
  @DisplayName("three overlapping reservations (#1 ada, #2 bob, #3 cyd) for the last 2 seats: exactly two get one, the "
      + "third hears sold out, whichever check answers first")
  Stream<DynamicTest> lastSeatsAreSoldOnlyOnce(Vertx vertx) {
    List<String> callers = List.of("ada", "bob", "cyd");
    return racing(callers.size(), (order, pace) -> {
      Scene scene = new Scene(vertx, 2);
      scene.reserveTogether(callers);
      scene.driveToTheEnd(priority(callers, order), Map.of("ada", Answer.YES, "bob", Answer.YES, "cyd", Answer.YES),
          pace);

      scene.assertNotOversold();
      for (String who : callers) {
        Outcome<Boolean> outcome = scene.outcome(who);
        require(outcome.error() == null, who + "'s reservation failed with " + outcome + ", but every check said "
            + "yes. Sold out is an answer, false, not an error.");
      }
      scene.assertNoUpdateLost();
      require(scene.sold() == 2, "Only " + scene.sold() + " of the 2 seats were sold to 3 callers whose checks all "
          + "said yes: " + scene.answers() + ". Nobody may hear sold out while a seat is still free.");
      scene.assertFreeSeats(0, "2 seats, sold to 2 of 3 callers");
    });
  }

  @TestFactory
  @Order(4)
  @Points(4)
  @DisplayName("when one check fails among three overlapping reservations (#1 ada, #2 mallory, #3 bob), mallory hears "
      + "the error and takes no seat, and the others still get theirs, whichever check answers first")
  Stream<DynamicTest> failedCheckFailsOnlyItsReservation(Vertx vertx) {
    List<String> callers = List.of("ada", "mallory", "bob");
    return racing(callers.size(), (order, pace) -> {
      Scene scene = new Scene(vertx, 10);
      scene.reserveTogether(callers);
      scene.driveToTheEnd(priority(callers, order),
          Map.of("ada", Answer.YES, "mallory", Answer.FAIL, "bob", Answer.YES), pace);

      Outcome<Boolean> mallory = scene.outcome("mallory");
      require(mallory.error() != null, "mallory's availability check failed (" + OUTAGE + "), but her reservation "
          + "answered " + mallory + ". " + (Boolean.TRUE.equals(mallory.value())
          ? "A failed check must not give anyone a seat: treat the failure as a failure, not as a yes."
          : "That tells her \"no seat for you\", which is not what happened. The caller must hear the error: let the "
            + "check's failure fail the reservation's future, so that the box office can answer 503 and she can "
            + "try again."));
      require(causedByOutage(mallory.error()), "mallory's reservation failed, but with " + mallory.error()
          + " rather than the check's own error (" + AvailabilityServiceDown.class.getSimpleName() + ": " + OUTAGE
          + "). Pass the check's failure on, so that the caller learns what went wrong.");
      scene.assertAnswer("ada", Outcome.of(true), "her check said yes and seats were free");
      scene.assertAnswer("bob", Outcome.of(true), "his check said yes and seats were free");
      scene.assertNoUpdateLost();
      scene.assertFreeSeats(8, "ada and bob got seats, mallory's check failed");
    });
  }

  @Test
  @Order(5)
  @Points(4)
  @DisplayName("a failed check, a no, a yes, a check that throws and a sold-out answer each let the next waiting "
      + "reservation in: no lock leak")
  void everyPathLetsTheNextReservationIn(Vertx vertx) {
    Scene scene = new Scene(vertx, 3);

    // Each step: one reservation's check is in flight and the next caller is already waiting. The test answers the
    // check, and the waiting reservation must then reach its own check.
    scene.reserve("ada");
    Gate<Boolean> ada = scene.awaitCheck(1, "ada");
    scene.reserve("bob");
    scene.release(ada, Answer.FAIL);
    require(scene.hasAnswered("ada") && scene.outcome("ada").error() != null, "ada's availability check failed, "
        + "but her reservation answered " + scene.outcome("ada") + ". The caller must hear the error.");
    Gate<Boolean> bob = scene.awaitNextCheck(2, "bob", "ada's check failed", "failure");

    scene.reserve("cyd");
    scene.release(bob, Answer.NO);
    scene.assertAnswer("bob", Outcome.of(false), "his check said no");
    Gate<Boolean> cyd = scene.awaitNextCheck(3, "cyd", "bob's check said no", "refusal");

    scene.reserve("dan");
    scene.release(cyd, Answer.YES);
    scene.assertAnswer("cyd", Outcome.of(true), "her check said yes and 3 seats were free");
    Gate<Boolean> dan = scene.awaitNextCheck(4, "dan", "cyd got her seat", "success");
    scene.release(dan, Answer.YES);
    scene.assertAnswer("dan", Outcome.of(true), "his check said yes and 2 seats were free");

    // A check that throws instead of failing its future: ivy hears an error, and the next reservation gets its turn.
    scene.throwFor("ivy");
    scene.reserve("ivy");
    require(scene.hasAnswered("ivy") && scene.outcome("ivy").error() != null, "ivy's availability check threw ("
        + CLIENT_CLOSED + ") instead of failing its future, but her reservation answered " + scene.outcome("ivy")
        + ". The caller must hear the error: a failed future (withLocalLock, compose and Future.future turn an "
        + "exception thrown inside them into one).");
    scene.reserve("gus");
    Gate<Boolean> gus = scene.awaitNextCheck(5, "gus", "ivy's check threw instead of failing its future",
        "throwing-check");
    scene.release(gus, Answer.YES);
    scene.assertAnswer("gus", Outcome.of(true), "his check said yes and 1 seat was free");
    scene.assertNoUpdateLost();

    // Sold out now: eve hears so, and then fred must be let in to hear it too.
    for (String who : List.of("eve", "fred")) {
      scene.reserve(who);
      scene.driveToTheEnd(List.of(who), Map.of(who, Answer.YES), Pace.ONE_AT_A_TIME);
      scene.assertAnswer(who, Outcome.of(false), "the show was sold out");
    }
    scene.assertFreeSeats(0, "3 seats, taken by cyd, dan and gus");
  }

  @Test
  @Order(6)
  @Points(3)
  @DisplayName("the box office answers over the event bus, holds no lock once every reservation has answered, and "
      + "undeploys leaving nothing behind")
  void undeployLeavesNothingBehind(Vertx vertx) {
    GatedDependency<String, Boolean> check = new GatedDependency<>();
    String id = await(vertx.deployVerticle(new BoxOfficeVerticle(5, check::apply)), "Deploying BoxOfficeVerticle "
        + "did not finish within " + WAIT_SECONDS + " s.");

    Future<Message<JsonObject>> ada = vertx.eventBus().request(BoxOfficeVerticle.ADDRESS, fresh("ada"));
    check.awaitCalls(1, TimeUnit.SECONDS.toMillis(WAIT_SECONDS)).get(0).open(true);
    JsonObject reply = await(ada, "The box office did not reply to ada within " + WAIT_SECONDS + " s after her "
        + "check said yes.").body();
    require(reply.equals(new JsonObject().put("who", "ada").put("reserved", true).put("freeSeats", 4)),
        "The box office should reply {\"who\":\"ada\",\"reserved\":true,\"freeSeats\":4} to ada's reservation of "
            + "one of 5 seats, but replied " + reply + ".");

    Future<Message<JsonObject>> mallory = vertx.eventBus().request(BoxOfficeVerticle.ADDRESS, fresh("mallory"));
    check.awaitCalls(2, TimeUnit.SECONDS.toMillis(WAIT_SECONDS)).get(1).fail(new AvailabilityServiceDown(OUTAGE));
    Throwable failure = awaitFailure(mallory, "The box office did not answer mallory within " + WAIT_SECONDS
        + " s after her check failed: the failure was lost on its way back to the caller.", "mallory's check failed, "
        + "so the box office should fail her request with code " + BoxOfficeVerticle.CHECK_FAILED + " and the reason, "
        + "but it replied %s: SeatCounter.reserve turned the check's failure into an answer. Fail its future "
        + "with the check's error instead.");
    require(failure instanceof ReplyException reject && reject.failureCode() == BoxOfficeVerticle.CHECK_FAILED
            && String.valueOf(reject.getMessage()).contains(OUTAGE),
        "mallory's check failed with \"" + OUTAGE + "\", so the box office should fail her request with code "
            + BoxOfficeVerticle.CHECK_FAILED + " and that reason, but the reply was: " + failure
            + ". SeatCounter.reserve must fail its future with the check's error.");

    List<String> held = LockCensus.heldLocalLocks(vertx);
    require(held.isEmpty(), "Lock leak: every reservation has answered, and yet " + String.join(", ", held)
        + (held.size() == 1 ? " is" : " are") + " still held. The next reservation would wait for them until it times out. Release the lock on every path "
        + "(a seat, sold out, a no, and a failed check): withLocalLock does it for you, or release it in "
        + "andThen/onComplete, never only in onSuccess.");

    ShutdownCheck.assertCleanUndeploy(vertx, id);
  }

  // ----------------------------------------------------------------------------------------------------------------

  /** A scenario run for one release order at one pace. */
  private interface Race {
    void run(int[] order, Pace pace);
  }

  /**
   * One dynamic test per release order and pace: each order of {@code n} checks, answered in one go and one at a
   * time. Answered in one go, every reservation whose check is in flight has taken the step after its await before
   * any of them takes the next: two read-then-write sequences really overlap.
   */
  private static Stream<DynamicTest> racing(int n, Race race) {
    return Stream.of(Pace.TOGETHER, Pace.ONE_AT_A_TIME).flatMap(pace -> EveryOrder.permutations(n).stream()
        .map(order -> DynamicTest.dynamicTest("release order " + Arrays.stream(order).mapToObj(i -> "#" + (i + 1))
            .collect(Collectors.joining(" then ")) + ", " + pace.words, () -> race.run(order, pace))));
  }

  /**
   * The name as a request delivers it: a new String, decoded from bytes, never the test's literal. Code that tells
   * callers apart by identity ({@code ==}, {@code synchronized} on the name) sees what it would see in production.
   */
  static String fresh(String name) {
    return new String(name.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
  }

  /** The callers ordered by the priority that {@code order} gives them: order[0] first. */
  private static List<String> priority(List<String> callers, int[] order) {
    return Arrays.stream(order).mapToObj(callers::get).toList();
  }

  private static boolean causedByOutage(Throwable error) {
    return causedBy(error, OUTAGE);
  }

  private static boolean causedBy(Throwable error, String words) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if ((t instanceof AvailabilityServiceDown && String.valueOf(t.getMessage()).contains(words))
          || String.valueOf(t.getMessage()).contains(words)) {
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
  private static <T> T await(Future<T> future, String ifLate) {
    try {
      return future.toCompletionStage().toCompletableFuture().get(WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      throw new AssertionFailedError(ifLate);
    } catch (ExecutionException e) {
      throw new AssertionFailedError("Expected an answer, but got the failure " + e.getCause(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionFailedError("interrupted", e);
    }
  }

  /** Waits for {@code future} to fail; {@code ifAnswered} is a format whose %s receives the answer it gave instead. */
  private static Throwable awaitFailure(Future<?> future, String ifLate, String ifAnswered) {
    try {
      Object value = future.toCompletionStage().toCompletableFuture().get(WAIT_SECONDS, TimeUnit.SECONDS);
      throw new AssertionFailedError(String.format(ifAnswered, value instanceof Message<?> m ? m.body() : value));
    } catch (TimeoutException e) {
      throw new AssertionFailedError(ifLate);
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionFailedError("interrupted", e);
    }
  }

  /**
   * One show: a SeatCounter on an event-loop context of its own, the gated availability check it talks to, and what
   * each caller has heard so far. Every call into the counter runs on that one context, as requests to one verticle
   * do. Besides the answers, the scene keeps the evidence a message needs: the count each check was called at, the
   * count just before and just after each answer was delivered, and which answer was being delivered when a check
   * was called. Nested in the test class, so that the guard never mistakes its frames for the learner's code.
   */
  static final class Scene {

    /** A call to the check: who, the count at that moment, and whose answer was being delivered then (or null). */
    record Call(String who, int count, String duringAnswerOf, String site) {
    }

    /** An answer delivered to a reservation's check, with the count just before and just after, in the same task. */
    record Delivery(String who, Answer answer, int before, int after) {
    }

    private final Vertx vertx;
    private final Context context;
    private final int seats;
    private final GatedDependency<String, Boolean> check = new GatedDependency<>();
    private final List<String> callers = new CopyOnWriteArrayList<>();
    private final Map<String, Outcome<Boolean>> outcomes = new ConcurrentHashMap<>();
    private final Set<String> throwing = ConcurrentHashMap.newKeySet();
    private final List<Call> calls = new CopyOnWriteArrayList<>();
    private final List<Delivery> deliveries = new CopyOnWriteArrayList<>();
    private final Map<String, Throwable> errorsGiven = new ConcurrentHashMap<>();
    /** The count once the loop had run everything that an answer started, by whose answer it was. */
    private final Map<String, Integer> settledAfter = new ConcurrentHashMap<>();
    private SeatCounter counter;
    /** Whose answer the test is delivering right now, on the loop; null between deliveries. */
    private volatile String answering;
    /** The most availability checks ever seen in flight at the same time. */
    private int mostInFlight;
    /** What the test did last, for the messages. */
    private String lastStep = "started the reservations";
    /** How the test answered the checks: one at a time, or in one go. */
    private Pace pace = Pace.ONE_AT_A_TIME;

    Scene(Vertx vertx, int seats) {
      this.vertx = vertx;
      this.seats = seats;
      this.context = vertx.getOrCreateContext();
      onLoop(() -> counter = new SeatCounter(vertx, seats, this::check));
    }

    /** The availability check the counter is given: notes the evidence, then waits for the test (or throws). */
    private Future<Boolean> check(String who) {
      int count = counter == null ? seats : counter.freeSeats();
      String site = io.looplab.grader.sync.CallSite.ofCurrentCall().orElse(null);
      calls.add(new Call(who, count, answering, site));
      if (throwing.contains(who)) {
        AvailabilityServiceDown error = new AvailabilityServiceDown(CLIENT_CLOSED);
        errorsGiven.put(who, error);
        throw error;
      }
      return check.apply(who);
    }

    /** Makes {@code who}'s availability check throw when it is called, instead of returning a future. */
    void throwFor(String who) {
      throwing.add(who);
    }

    /** {@code who} asks for a seat: reserve() runs on the counter's event loop, and the loop then runs what follows. */
    void reserve(String who) {
      reserveTogether(List.of(who));
    }

    /**
     * The {@code group} ask for a seat at the same moment: their reserve() calls run one after another in one task
     * of the counter's event loop, as requests queued together would, and the loop then runs what they started.
     */
    void reserveTogether(List<String> group) {
      callers.addAll(group);
      onLoop(() -> group.forEach(who -> {
        Future<Boolean> answer;
        try {
          answer = counter.reserve(fresh(who));
        } catch (RuntimeException e) {
          outcomes.put(who, Outcome.failed(e));
          if (throwing.contains(who) && causedBy(e, CLIENT_CLOSED)) {
            return; // the check's own exception, passed on: the caller heard the error
          }
          throw new AssertionFailedError("reserve(\"" + who + "\") threw " + e + " instead of returning a future. "
              + "Report a problem by failing the future it returns.", e);
        }
        if (answer == null) {
          throw new AssertionFailedError("reserve(\"" + who + "\") returned null instead of a future.");
        }
        answer.onComplete(ar -> outcomes.put(who, ar.succeeded() ? Outcome.of(Boolean.TRUE.equals(ar.result()))
            : Outcome.failed(ar.cause())));
      }));
      settle();
    }

    /** Waits for call number {@code n} (from 1) of the check, and makes sure it was made for {@code who}. */
    Gate<Boolean> awaitCheck(int n, String who) {
      List<Gate<Boolean>> gates;
      try {
        gates = check.awaitCalls(n, TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
      } catch (AssertionError e) {
        throw new AssertionFailedError(who + "'s reservation did not call the availability check within " + WAIT_SECONDS
            + " s" + (hasAnswered(who) ? "; it answered " + outcome(who) + " without asking" : "") + ". Every "
            + "reservation of a free seat must ask AvailabilityCheck.check(who) before it answers.");
      }
      return gateOf(gates.get(n - 1), who);
    }

    /**
     * After the previous holder's check ended with {@code how}, waits for call number {@code n}, made by the
     * reservation of {@code who}, which was waiting for its turn. A correct solution makes that call at once; a
     * bounded wait proves that a broken one never does. The message says what was observed: a lock still held, an
     * error passed on to the next in line, or a reservation that waits with no lock held.
     */
    Gate<Boolean> awaitNextCheck(int n, String who, String how, String path) {
      settle();
      if (check.arrivesWithin(n, STUCK_MILLIS)) {
        return gateOf(check.calledSoFar().get(n - 1), who);
      }
      settle();
      List<String> held = LockCensus.heldLocalLocks(vertx);
      String waited = how + ", and afterwards " + who + "'s reservation, which was waiting for its turn, did not reach "
          + "the availability check within " + STUCK_MILLIS + " ms";
      if (hasAnswered(who)) {
        Outcome<Boolean> answered = outcome(who);
        Throwable passedOn = answered.error();
        boolean sameError = passedOn != null && errorsGiven.values().stream().anyMatch(given -> isOrWraps(passedOn,
            given));
        if (sameError) {
          throw new AssertionFailedError("A failure passed on to the next in line: " + waited + "; it answered "
              + answered + ", the very error of the reservation ahead of it, without asking its own check. "
              + (held.isEmpty() ? "No local lock is held, so this is not a lock leak: " : "")
              + "the turns are handed on through a chain of futures that a failure poisoned. tail.compose(v -> "
              + "next) and tail.map(...) skip their function once tail has failed, so every reservation after a "
              + "failed one fails with its error. Start each reservation whatever the previous one ended with: "
              + "tail.transform(done -> next), or tail.eventually(() -> next)" + inCode() + ".");
        }
        throw new AssertionFailedError(waited + "; it answered " + answered + " instead, without asking. With "
            + freeSeats() + " seats free, a reservation must ask AvailabilityCheck.check(who) before it answers"
            + inCode() + ".");
      }
      if (!held.isEmpty()) {
        throw new AssertionFailedError("Lock leak on the " + path + " path: " + waited + ", and " + String.join(", ",
            held) + " is still held, although the reservation ahead of it has answered. The " + path + " path kept "
            + "the lock: a lock leak, and every later reservation now waits for that lock until its timeout (10 s by "
            + "default) fails it. Release the lock on every path out of the critical section: withLocalLock(name, "
            + "() -> ...) does it for you whatever the future you return does, and even when the block throws; by "
            + "hand, release it in andThen or onComplete, not in onSuccess, and also when the call throws"
            + inCode() + ".");
      }
      throw new AssertionFailedError("Stuck on the " + path + " path: " + waited + ", and no local lock is held, so "
          + "this is not a leaked Vert.x lock: the reservation waits for a turn that is never handed on. The usual "
          + "causes: a turn handed on only on success (a queue or chain continued in onSuccess, a \"busy\" flag "
          + "reset only when the reservation succeeds), or a promise that this path never completes. Hand the turn on "
          + "however the reservation ends: in andThen, onComplete, transform or eventually" + inCode() + ".");
    }

    private static boolean isOrWraps(Throwable error, Throwable given) {
      for (Throwable t = error; t != null; t = t.getCause()) {
        if (t == given) {
          return true;
        }
      }
      return false;
    }

    private static Gate<Boolean> gateOf(Gate<Boolean> gate, String who) {
      require(who.equals(gate.argument()), "The availability check was called for " + gate.argument() + " where the "
          + "test expected " + who + ". reserve(who) must ask about that same person: check(who).");
      return gate;
    }

    /** Answers one check the way {@code answer} says, then lets the event loop run everything that follows. */
    void release(Gate<Boolean> gate, Answer answer) {
      deliver(List.of(gate), Map.of(String.valueOf(gate.argument()), answer));
    }

    /**
     * Answers {@code gates} in the order given, all in one task of the counter's event loop, noting the count just
     * before and after each, then lets the loop run everything that follows.
     */
    private void deliver(List<Gate<Boolean>> gates, Map<String, Answer> script) {
      List<Gate.Release> releases = new ArrayList<>();
      List<String> words = new ArrayList<>();
      for (Gate<Boolean> gate : gates) {
        String who = String.valueOf(gate.argument());
        Answer answer = script.getOrDefault(who, Answer.YES);
        Gate.Release release = switch (answer) {
          case NO -> gate.opening(false);
          case FAIL -> {
            AvailabilityServiceDown error = new AvailabilityServiceDown(OUTAGE);
            errorsGiven.put(who, error);
            yield gate.failing(error);
          }
          default -> gate.opening(true);
        };
        int[] before = new int[1];
        releases.add(release
            .beforehand(() -> {
              answering = who;
              before[0] = counter.freeSeats();
            })
            .andThen(() -> {
              answering = null;
              deliveries.add(new Delivery(who, answer, before[0], counter.freeSeats()));
            }));
        answeredChecks.add(who);
        words.add(switch (answer) {
          case NO -> "answered " + who + "'s check with no";
          case FAIL -> "failed " + who + "'s check";
          default -> "answered " + who + "'s check with yes";
        });
      }
      try {
        Gate.releaseTogether(releases);
      } catch (IllegalArgumentException checkedFromSeveralContexts) {
        // The checks were called from different contexts (a design that spreads reservations over verticles): no
        // single task can answer them all, so they are answered one after another.
        releases.forEach(Gate::releaseTogether);
      }
      lastStep = String.join(" and ", words);
      settle();
      int settled = freeSeats();
      gates.forEach(gate -> settledAfter.put(String.valueOf(gate.argument()), settled));
    }

    /** Whose checks the test answered, in the order it answered them. */
    private final List<String> answeredChecks = new CopyOnWriteArrayList<>();

    /**
     * Answers checks until every caller has answered. Whenever several checks are in flight at once, the one whose
     * caller comes first in {@code priority} is answered first: at {@link Pace#TOGETHER} all of them in one task, at
     * {@link Pace#ONE_AT_A_TIME} only that one, and the loop runs all it started before the next. A solution that lets
     * one reservation at a time reach the check leaves the test no choice, which is fine: every order must give the
     * same count.
     */
    void driveToTheEnd(List<String> priority, Map<String, Answer> script, Pace pace) {
      this.pace = pace;
      settle();
      int released = 0;
      while (!unanswered().isEmpty()) {
        List<Gate<Boolean>> pending = new ArrayList<>(pendingChecks());
        if (pending.isEmpty()) {
          awaitProgress();
          continue;
        }
        pending.sort(Comparator.comparingInt(g -> {
          int rank = priority.indexOf(String.valueOf(g.argument()));
          return rank < 0 ? Integer.MAX_VALUE : rank;
        }));
        List<Gate<Boolean>> now = pace == Pace.TOGETHER ? pending : pending.subList(0, 1);
        released += now.size();
        require(released <= 2 * callers.size(), "The availability check was called " + check.calls() + " times "
            + "for " + callers.size() + " reservations. Ask once per reservation.");
        deliver(now, script);
      }
    }

    /**
     * A caller has no answer yet, no check is in flight, and the event loop has nothing left to run. Give the code
     * {@link #STUCK_MILLIS} to make another call (a timer could be involved) before calling it stuck.
     */
    private void awaitProgress() {
      int calls = check.calls();
      if (check.arrivesWithin(calls + 1, STUCK_MILLIS)) {
        settle();
        return;
      }
      settle();
      if (unanswered().isEmpty()) {
        return;
      }
      List<String> stuck = unanswered();
      List<String> held = LockCensus.heldLocalLocks(vertx);
      String what = "Stuck: " + String.join(" and ", stuck) + " asked for a seat and never got an answer. After the "
          + "test " + lastStep + ", no availability check was in flight, the event loop had nothing left to run, and "
          + "nothing changed for " + STUCK_MILLIS + " ms: " + (stuck.size() == 1 ? "that reservation waits"
          : "those reservations wait") + " for something that will never happen. ";
      if (!held.isEmpty()) {
        throw new AssertionFailedError(what + String.join(", ", held) + " is still held, though no reservation that "
            + "holds it has anything left to wait for: a lock leak, a lock taken and not released on that path. Every "
            + "way out of the critical section (a seat, sold out, a no, a failed check) must release it: "
            + "withLocalLock(name, () -> ...) releases it for you when the future you return completes, however it "
            + "completes" + inCode() + ".");
      }
      throw new AssertionFailedError(what + "No local lock is held, so this is not a leaked Vert.x lock. The usual "
          + "causes: a turn handed on only on success (a queue or chain continued in onSuccess or compose, a "
          + "\"busy\" flag reset only when a reservation succeeds), or a promise that some path never completes. "
          + "Every way out (a seat, sold out, a no, a failed check) must let the next reservation in" + inCode() + ".");
    }

    /** Asserts that {@code who} has answered {@code expected}; {@code because} says why that is the right answer. */
    void assertAnswer(String who, Outcome<Boolean> expected, String because) {
      settle();
      require(hasAnswered(who), who + "'s reservation has not answered, though " + because + " and no check is in "
          + "flight. Answer every reservation once its check has answered.");
      Outcome<Boolean> actual = outcome(who);
      require(actual.equals(expected), who + "'s reservation should answer " + expected + ", because " + because
          + ", but it answered " + actual + ". All answers: " + answers() + "; " + freeSeats() + " of " + seats
          + " seats free now" + inCode() + ".");
    }

    void assertFreeSeats(int expected, String story) {
      int free = freeSeats();
      require(free == expected, "After " + story + ", freeSeats() should be " + expected + ", but it is " + free
          + ". Answers: " + answers() + ".");
    }

    /** Each caller told true holds one seat: the seats taken equal the seats sold, and the count stays >= 0. */
    void assertNoUpdateLost() {
      int free = freeSeats();
      int sold = sold();
      int taken = seats - free;
      if (taken >= sold && free >= 0) {
        require(taken == sold, "The counter lost seats: " + sold + " reservations were told they have a seat, but "
            + "the count went from " + seats + " to " + free + ". Only a reservation that answers true may take a "
            + "seat; a no or a failed check must leave the count as it was. Answers: " + answers() + ".");
        return;
      }
      if (free < 0) {
        assertNotOversold();
      }
      throw new AssertionFailedError("Lost update: " + sold + " reservations (" + soldTo() + ") were told they have "
          + "a seat, but the count went from " + seats + " to " + free + " free seats, not " + (seats - sold) + ": "
          + ((sold - taken) == 1 ? "one write overwrote another" : (sold - taken) + " writes were overwritten") + " ("
          + order() + "). " + whyWritesWereLost() + inCode() + ".");
    }

    /** The test's order of answers, in words. */
    private String order() {
      return "the test answered the checks in this order: " + String.join(", then ", answeredChecks) + ", "
          + pace.words;
    }

    /** What the evidence says about a lost write: overlapping checks, a late write, or a read before the turn. */
    private String whyWritesWereLost() {
      if (mostInFlight > 1) {
        String overlap = mostInFlight + " availability checks were in flight at the same time (" + callsInWords()
            + "). ";
        String how;
        Delivery late = firstYes(this::landedLater);
        Delivery stale = firstYes(d -> d.after() != d.before() - 1 && d.after() == countAtCall(d.who()) - 1);
        if (late != null) {
          how = "The writes did not land when the checks answered: when " + late.who() + "'s check said yes, the "
              + "count stayed at " + late.before() + ", and it changed only in a later task. So each reservation "
              + "read the count when its check answered and wrote in a later task, and the others read the same "
              + "count in between. ";
        } else if (stale != null) {
          how = "When " + stale.who() + "'s check said yes, the count was " + stale.before() + ", and " + stale.who()
              + " wrote " + stale.after() + ": the count of " + countAtCall(stale.who()) + " read before the await, "
              + "minus one. Each reservation read the count, awaited its check, then wrote its stale count minus "
              + "one. ";
        } else {
          how = "Each reservation wrote a count computed from a value that another reservation changed before the "
              + "write landed. ";
        }
        return overlap + how + "One event loop runs one task at a time, but a reservation that awaits is two tasks, "
            + "and other reservations run in the gap. Make the read, the decision and the write one critical "
            + "section, held across the await: for example vertx.sharedData().withLocalLock(name, () -> ...) around "
            + "all three, or a chain that starts each reservation when the previous one has finished. A lock around "
            + "the write alone does not help: the value it writes comes from a stale read";
      }
      Delivery stale = firstYes(d -> d.after() != d.before() - 1);
      if (stale != null) {
        Call call = callOf(stale.who());
        Delivery ahead = call == null || call.duringAnswerOf() == null ? null : deliveryOf(call.duringAnswerOf());
        String serial = "The checks ran one at a time, so something did serialise the reservations. ";
        if (call != null && ahead != null && call.count() != ahead.after()) {
          return serial + stale.who() + "'s check was called while " + ahead.who() + "'s answer was being handled, "
              + "before " + ahead.who() + "'s write had landed (the count was still " + call.count() + "; "
              + ahead.who() + "'s write made it " + ahead.after() + " afterwards, in that same task): "
              + stale.who() + " was let in, and read the count, before the one ahead of it had written. The "
              + "critical section ended before the write. If you use a lock, release it only after the write: "
              + "withLocalLock releases it when the future you return completes, so the write must be part of that "
              + "future, not a step chained after it";
        }
        Integer later = settledAfter.get(stale.who());
        if (call != null && call.count() == stale.before() && (later == null || later == stale.after())) {
          return serial + stale.who() + "'s check was called when the count was already " + call.count() + ", once "
              + "the writes ahead of " + stale.who() + " had landed; yet when it said yes, the count went from "
              + stale.before() + " to " + stale.after() + ", not " + (stale.before() - 1) + ": the write was "
              + "computed from a count read before " + stale.who() + "'s turn began"
              + (stale.after() + 1 > stale.before() ? " (" + (stale.after() + 1) + " minus one: the count as it was "
              + "before the reservations ahead wrote)" : "") + ". The read of freeSeats happened before the "
              + "reservation entered the critical section (before the lock was taken, or before its turn in the "
              + "queue). Move the read inside it: read freeSeats only once the lock is yours";
        }
      }
      return "The checks ran one at a time, so something did serialise the reservations, and yet a write was lost. "
          + "The usual causes: the count was read before the reservation's turn began (before the lock was taken), "
          + "or the turn ended before the write (the lock released, or the next reservation let in, before "
          + "freeSeats was written). The read, the decision and the write must all be inside the critical section";
    }

    /** The answer left the count as it was, and the count changed only once the loop ran what the answer started. */
    private boolean landedLater(Delivery d) {
      Integer later = settledAfter.get(d.who());
      return d.after() == d.before() && later != null && later != d.after();
    }

    private Delivery firstYes(java.util.function.Predicate<Delivery> test) {
      return deliveries.stream().filter(d -> d.answer() == Answer.YES)
          .filter(d -> Boolean.TRUE.equals(outcome(d.who()).value())).filter(test).findFirst().orElse(null);
    }

    private Call callOf(String who) {
      return calls.stream().filter(c -> c.who().equals(who)).findFirst().orElse(null);
    }

    private Delivery deliveryOf(String who) {
      return deliveries.stream().filter(d -> d.who().equals(who)).findFirst().orElse(null);
    }

    private int countAtCall(String who) {
      Call call = callOf(who);
      return call == null ? Integer.MIN_VALUE : call.count();
    }

    /** "ada's, called at a count of 10, and bob's, called at a count of 10". */
    private String callsInWords() {
      return calls.stream().map(c -> c.who() + "'s, called when the count was " + c.count())
          .collect(Collectors.joining("; "));
    }

    /** Where the learner's code made the checks, as " (the check was called from reserve() at SeatCounter.java:41)". */
    private String inCode() {
      Set<String> sites = new LinkedHashSet<>();
      calls.forEach(c -> {
        if (c.site() != null) {
          sites.add(c.site());
        }
      });
      return sites.isEmpty() ? "" : " (your code called the availability check from " + String.join(" and ", sites)
          + ")";
    }

    /** No more callers told true than there were seats, and never a negative count. */
    void assertNotOversold() {
      int free = freeSeats();
      int sold = sold();
      if (sold <= seats && free >= 0) {
        return;
      }
      Delivery late = firstYes(this::landedLater);
      throw new AssertionFailedError("Oversold: " + sold + " callers (" + soldTo() + ") were told they have a seat, "
          + "but the show had only " + seats + "; freeSeats() now says " + free + " (" + order() + "). "
          + (mostInFlight > 1
          ? mostInFlight + " availability checks were in flight at the same time (" + callsInWords() + "), and "
            + (late != null
            ? "the writes did not land when the checks answered (when " + late.who() + "'s check said yes, the count "
              + "stayed at " + late.before() + "): each reservation decided \"a seat is free\" from a count that the "
              + "others had not written yet. Deciding and writing in different tasks lets others decide in between: "
              : "each of those reservations decided \"a seat is free\" from a count it read before the others took "
              + "their seats. Re-reading the count at the write (freeSeats - 1 instead of free - 1) fixes the "
              + "arithmetic, not the decision: ")
            + "the read, the decision and the write must be one critical section, held across the await of the check."
          : "The checks ran one at a time, yet a reservation decided from a count read before the previous "
            + "reservation wrote: the critical section must cover the read, the decision and the write.")
          + inCode());
    }

    /** The callers told true, as "ada, bob". */
    String soldTo() {
      return callers.stream().filter(who -> Boolean.TRUE.equals(outcome(who).value()))
          .collect(Collectors.joining(", "));
    }

    int sold() {
      return (int) callers.stream().filter(who -> Boolean.TRUE.equals(outcome(who).value())).count();
    }

    boolean hasAnswered(String who) {
      return outcomes.containsKey(who);
    }

    Outcome<Boolean> outcome(String who) {
      Outcome<Boolean> outcome = outcomes.get(who);
      return outcome == null ? Outcome.none() : outcome;
    }

    String answers() {
      return callers.stream().map(who -> who + " " + (hasAnswered(who) ? outcome(who).toString() : "no answer yet"))
          .collect(Collectors.joining(", "));
    }

    private List<String> unanswered() {
      return callers.stream().filter(who -> !outcomes.containsKey(who)).toList();
    }

    private List<Gate<Boolean>> pendingChecks() {
      return check.calledSoFar().stream().filter(Gate::isPending).toList();
    }

    int freeSeats() {
      CompletableFuture<Integer> free = new CompletableFuture<>();
      onLoop(() -> free.complete(counter.freeSeats()));
      return free.join();
    }

    /**
     * Lets the counter's event loop run until it has nothing left to do: every task that the last step queued, and
     * every task those queued, has run. Then counts the checks in flight. No clock involved: a probe task runs on the
     * loop and looks at its queue, until it finds the queue empty.
     */
    void settle() {
      EventExecutor loop = ((ContextInternal) context).nettyEventLoop();
      for (int round = 0; round < 1_000; round++) {
        CompletableFuture<Integer> queued = new CompletableFuture<>();
        onLoop(() -> queued.complete(loop instanceof SingleThreadEventExecutor single ? single.pendingTasks() : 0));
        if (queued.join() == 0 && (loop instanceof SingleThreadEventExecutor || round >= 20)) {
          break;
        }
      }
      mostInFlight = Math.max(mostInFlight, pendingChecks().size());
    }

    /** Runs {@code action} on the counter's context and waits for it; what it throws fails the test. */
    private void onLoop(Runnable action) {
      CompletableFuture<Void> done = new CompletableFuture<>();
      context.runOnContext(v -> {
        try {
          action.run();
          done.complete(null);
        } catch (Throwable t) {
          done.completeExceptionally(t);
        }
      });
      try {
        done.get(WAIT_SECONDS, TimeUnit.SECONDS);
      } catch (TimeoutException e) {
        throw new AssertionFailedError("The counter's event loop did not run a task within " + WAIT_SECONDS + " s: "
            + "is something blocking it?");
      } catch (ExecutionException e) {
        if (e.getCause() instanceof AssertionError failure) {
          throw failure;
        }
        throw new AssertionFailedError("The counter threw " + e.getCause(), e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionFailedError("interrupted", e);
      }
    }
  }
}
