package io.looplab.lostupdate;

import io.looplab.grader.Outcome;
import io.looplab.grader.leaks.LockCensus;
import io.looplab.grader.sync.CallSite;
import io.looplab.grader.sync.EveryOrder;
import io.looplab.grader.sync.Gate;
import io.looplab.grader.sync.GatedDependency;
import io.looplab.grader.races.Fresh;
import io.looplab.grader.testkit.Await;
import io.looplab.grader.testkit.OnContext;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.SingleThreadEventExecutor;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;
import org.junit.jupiter.api.DynamicTest;
import org.opentest4j.AssertionFailedError;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static io.looplab.grader.testkit.Checks.require;
import static io.looplab.lostupdate.AvailabilityServiceDown.CLIENT_CLOSED;
import static io.looplab.lostupdate.AvailabilityServiceDown.OUTAGE;

/**
 * One show: a SeatCounter on an event-loop context of its own, the gated availability check it talks to, and what
 * each caller has heard so far. Every call into the counter runs on that one context, as requests to one verticle
 * do. Besides the answers, the scene keeps the evidence a message needs ({@link SceneEvidence}): the count each check
 * was called at, the count just before and just after each answer was delivered, and which answer was being
 * delivered when a check was called. It is compiled with the graded tests, so the guard never mistakes its frames
 * for the learner's code.
 */
final class ShowScene {

  /** How long the test waits for what a correct solution does at once: a call to the check, a reply. */
  static final Duration WAIT = Duration.ofSeconds(5);

  /**
   * How long a reservation may stay silent, with no check in flight and nothing left for the event loop to run,
   * before the test calls it stuck (in practice: waiting for a lock nobody will release). A correct solution moves on
   * within microseconds of being let in, so only a broken one ever waits this out.
   */
  static final long STUCK_MILLIS = 1_000;

  /**
   * What the test's availability check answers for one person. THROW: the call itself throws, instead of returning
   * a future (a client whose connection is closed does that).
   */
  enum Answer { YES, NO, FAIL, THROW }

  /** How the checks in flight are answered: all in one event-loop task, or each one left to finish first. */
  enum Pace {
    TOGETHER("all checks in flight answered in one go"),
    ONE_AT_A_TIME("each answer finished before the next");

    final String words;

    Pace(String words) {
      this.words = words;
    }
  }

  /** A scenario run for one release order at one pace. */
  interface Race {
    void run(int[] order, Pace pace);
  }

  /**
   * One dynamic test per release order and pace: each order of {@code n} checks, answered in one go and one at a
   * time. Answered in one go, every reservation whose check is in flight has taken the step after its await before
   * any of them takes the next: two read-then-write sequences really overlap.
   */
  static Stream<DynamicTest> racing(int n, Race race) {
    return Stream.of(Pace.TOGETHER, Pace.ONE_AT_A_TIME).flatMap(pace -> EveryOrder.permutations(n).stream()
        .map(order -> DynamicTest.dynamicTest("release order " + Arrays.stream(order).mapToObj(i -> "#" + (i + 1))
            .collect(Collectors.joining(" then ")) + ", " + pace.words, () -> race.run(order, pace))));
  }

  /** The callers ordered by the priority that {@code order} gives them: order[0] first. */
  static List<String> priority(List<String> callers, int[] order) {
    return Arrays.stream(order).mapToObj(callers::get).toList();
  }

  private final Vertx vertx;
  private final Context context;
  final int seats;
  private final GatedDependency<String, Boolean> check = new GatedDependency<>();
  final List<String> callers = new CopyOnWriteArrayList<>();
  private final Map<String, Outcome<Boolean>> outcomes = new ConcurrentHashMap<>();
  private final Set<String> throwing = ConcurrentHashMap.newKeySet();
  /** The calls, the deliveries and what they say about a lost update. */
  private final SceneEvidence evidence = new SceneEvidence(this);
  private SeatCounter counter;
  /** Whose answer the test is delivering right now, on the loop; null between deliveries. */
  private volatile String answering;
  /** What the test did last, for the messages. */
  private String lastStep = "started the reservations";

  ShowScene(Vertx vertx, int seats) {
    this.vertx = vertx;
    this.seats = seats;
    this.context = vertx.getOrCreateContext();
    OnContext.run(context, () -> counter = new SeatCounter(vertx, seats, this::check), WAIT);
  }

  /** The availability check the counter is given: notes the evidence, then waits for the test (or throws). */
  private Future<Boolean> check(String who) {
    int count = counter == null ? seats : counter.freeSeats();
    String site = CallSite.ofCurrentCall().orElse(null);
    evidence.calls.add(new SceneEvidence.Call(who, count, answering, site));
    if (throwing.contains(who)) {
      AvailabilityServiceDown error = new AvailabilityServiceDown(CLIENT_CLOSED);
      evidence.errorsGiven.put(who, error);
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
    OnContext.run(context, () -> group.forEach(who -> {
      Future<Boolean> answer;
      try {
        answer = counter.reserve(Fresh.copyOf(who));
      } catch (RuntimeException e) {
        outcomes.put(who, Outcome.failed(e));
        if (throwing.contains(who) && AvailabilityServiceDown.causedBy(e, CLIENT_CLOSED)) {
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
    }), WAIT);
    settle();
  }

  /** Waits for call number {@code n} (from 1) of the check, and makes sure it was made for {@code who}. */
  Gate<Boolean> awaitCheck(int n, String who) {
    List<Gate<Boolean>> gates;
    try {
      gates = check.awaitCalls(n, WAIT.toMillis());
    } catch (AssertionError e) {
      throw new AssertionFailedError(who + "'s reservation did not call the availability check within "
          + Await.inWords(WAIT) + (hasAnswered(who) ? "; it answered " + outcome(who) + " without asking" : "")
          + ". Every reservation of a free seat must ask AvailabilityCheck.check(who) before it answers.");
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
    throw evidence.notLetIn(who, how, path, LockCensus.heldLocalLocks(vertx));
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
          evidence.errorsGiven.put(who, error);
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
            evidence.deliveries.add(new SceneEvidence.Delivery(who, answer, before[0], counter.freeSeats()));
          }));
      evidence.answeredChecks.add(who);
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
    gates.forEach(gate -> evidence.settledAfter.put(String.valueOf(gate.argument()), settled));
  }

  /**
   * Answers checks until every caller has answered. Whenever several checks are in flight at once, the one whose
   * caller comes first in {@code priority} is answered first: at {@link Pace#TOGETHER} all of them in one task, at
   * {@link Pace#ONE_AT_A_TIME} only that one, and the loop runs all it started before the next. A solution that lets
   * one reservation at a time reach the check leaves the test no choice, which is fine: every order must give the
   * same count.
   */
  void driveToTheEnd(List<String> priority, Map<String, Answer> script, Pace pace) {
    evidence.pace = pace;
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
    throw evidence.stuck(unanswered(), lastStep, LockCensus.heldLocalLocks(vertx));
  }

  /** Asserts that {@code who} has answered {@code expected}; {@code because} says why that is the right answer. */
  void assertAnswer(String who, Outcome<Boolean> expected, String because) {
    settle();
    require(hasAnswered(who), who + "'s reservation has not answered, though " + because + " and no check is in "
        + "flight. Answer every reservation once its check has answered.");
    Outcome<Boolean> actual = outcome(who);
    require(actual.equals(expected), who + "'s reservation should answer " + expected + ", because " + because
        + ", but it answered " + actual + ". All answers: " + answers() + "; " + freeSeats() + " of " + seats
        + " seats free now" + evidence.inCode() + ".");
  }

  void assertFreeSeats(int expected, String story) {
    int free = freeSeats();
    require(free == expected, "After " + story + ", freeSeats() should be " + expected + ", but it is " + free
        + ". Answers: " + answers() + ".");
  }

  /** Each caller told true holds one seat: the seats taken equal the seats sold, and the count stays >= 0. */
  void assertNoUpdateLost() {
    evidence.assertNoUpdateLost();
  }

  /** No more callers told true than there were seats, and never a negative count. */
  void assertNotOversold() {
    evidence.assertNotOversold();
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
    return OnContext.call(context, counter::freeSeats, WAIT);
  }

  /**
   * Lets the counter's event loop run until it has nothing left to do: every task that the last step queued, and
   * every task those queued, has run. Then counts the checks in flight. No clock involved: a probe task runs on the
   * loop and looks at its queue, until it finds the queue empty.
   */
  void settle() {
    EventExecutor loop = ((ContextInternal) context).nettyEventLoop();
    for (int round = 0; round < 1_000; round++) {
      int queued = OnContext.call(context,
          () -> loop instanceof SingleThreadEventExecutor single ? single.pendingTasks() : 0, WAIT);
      if (queued == 0 && (loop instanceof SingleThreadEventExecutor || round >= 20)) {
        break;
      }
    }
    evidence.mostInFlight = Math.max(evidence.mostInFlight, pendingChecks().size());
  }
}
