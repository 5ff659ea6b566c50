package io.looplab.virtualthreads;

import io.looplab.grader.Outcome;
import io.looplab.grader.leaks.LockCensus;
import io.looplab.grader.races.Fresh;
import io.looplab.grader.sync.CallSite;
import io.looplab.grader.sync.ContextSettle;
import io.looplab.grader.sync.EveryOrder;
import io.looplab.grader.sync.Gate;
import io.looplab.grader.sync.GatedDependency;
import io.looplab.grader.testkit.Await;
import io.looplab.grader.testkit.OnContext;
import io.vertx.core.Context;
import io.vertx.core.Future;
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
import static io.looplab.virtualthreads.AvailabilityServiceDown.CLIENT_CLOSED;
import static io.looplab.virtualthreads.AvailabilityServiceDown.OUTAGE;

/**
 * One show: the learner's SeatCounter on a virtual-thread context ({@link Stage}), the gated availability check it
 * talks to, and what each caller has heard so far. Each reservation is a task of that context, on a virtual thread of
 * its own, as a request to a virtual-thread verticle is. The scene keeps the evidence a message needs
 * ({@link SceneEvidence}): the count when each check was called, the count before each answer and once everything it
 * started had run. No clock: after each step the test lets the context run until it has nothing left to do
 * ({@link ContextSettle}); a reservation suspended in {@code await()} has nothing to do until its future completes.
 */
final class ShowScene implements AutoCloseable {

  /** How long the test waits for what a correct solution does at once: a deployment, a reply. */
  static final Duration WAIT = Duration.ofSeconds(5);

  /**
   * How long a reservation may stay silent, or keep the context while it waits itself (parked, blocked, sleeping),
   * before the test calls it stuck: a lock nobody will release, or a context held by a task that waits in a way that
   * does not let it go. A correct solution moves on within microseconds (a task that is only slow to get a core is
   * runnable, and is given up to {@link #WAIT}), so only a broken one ever waits this out.
   */
  static final long STUCK_MILLIS = 1_000;

  /** What the test's availability check answers for one person; THROW: the call itself throws. */
  enum Answer { YES, NO, FAIL, THROW }

  /** How the checks in flight are answered: all in one task of the context, or each one left to finish first. */
  enum Pace {
    TOGETHER("all checks in flight answered in one go"),
    ONE_AT_A_TIME("each answer finished before the next");

    final String words;

    Pace(String words) {
      this.words = words;
    }
  }

  /** A scenario run for one release order at one pace, in a scene of its own. */
  interface Race {
    void run(int[] order, Pace pace);
  }

  /** One dynamic test per release order and pace. */
  static Stream<DynamicTest> racing(int n, Race race) {
    return Stream.of(Pace.TOGETHER, Pace.ONE_AT_A_TIME).flatMap(pace -> EveryOrder.permutations(n).stream()
        .map(order -> DynamicTest.dynamicTest("release order " + Arrays.stream(order).mapToObj(i -> "#" + (i + 1))
            .collect(Collectors.joining(" then ")) + ", " + pace.words, () -> race.run(order, pace))));
  }

  /** The callers ordered by the priority that {@code order} gives them: order[0] first. */
  static List<String> priority(List<String> callers, int[] order) {
    return Arrays.stream(order).mapToObj(callers::get).toList();
  }

  private final Stage stage;
  private final Context context;
  final int seats;
  private final GatedDependency<String, Boolean> check = new GatedDependency<>();
  final List<String> callers = new CopyOnWriteArrayList<>();
  private final Map<String, Outcome<Boolean>> outcomes = new ConcurrentHashMap<>();
  private final Set<String> throwing = ConcurrentHashMap.newKeySet();
  /** Which reservation each virtual thread runs, to name the one that holds the context. */
  private final Map<Thread, String> threads = new ConcurrentHashMap<>();
  final SceneEvidence evidence = new SceneEvidence(this);
  private SeatCounter counter;
  private volatile boolean deadlocked;
  /** What the test did last, for the messages. */
  private String lastStep = "started the reservations";

  ShowScene(int seats) {
    this(seats, Stage.open());
  }

  private ShowScene(int seats, Stage stage) {
    this.seats = seats;
    this.stage = stage;
    this.context = stage.context();
    counter = OnContext.call(context, () -> new SeatCounter(stage.vertx, seats, this::check), WAIT);
  }

  /**
   * Another show in the same Vert.x instance: a SeatCounter of its own, created on a deployment of its own (a second
   * verticle on virtual threads), with an availability check of its own. Closing it leaves the Vert.x instance to
   * this scene.
   */
  ShowScene anotherShow(int seats) {
    return new ShowScene(seats, Stage.in(stage.vertx));
  }

  /** True when call number {@code n} of this show's check arrives within {@code millis}. */
  boolean checkArrivesWithin(int n, long millis) {
    settle();
    boolean arrived = check.arrivesWithin(n, millis);
    settle();
    return arrived;
  }

  /** The local locks held in this show's Vert.x instance, as "the local lock 'name'". */
  List<String> heldLocks() {
    return LockCensus.heldLocalLocks(stage.vertx);
  }

  /**
   * Asserts that {@code who}, who asked for a seat of a sold-out show, heard false: there is nothing to ask the check
   * about, so whatever it would have said (here it fails or throws) must not change that answer.
   */
  void assertSoldOutAnswer(String who) {
    settle();
    Outcome<Boolean> actual = outcome(who);
    if (actual.equals(Outcome.of(false))) {
      return;
    }
    SceneEvidence.Call asked = evidence.callOf(who);
    throw new AssertionFailedError(who + "'s reservation should answer false, because the show was sold out (0 of "
        + seats + " seats free), but it " + (hasAnswered(who) ? "answered " + actual : "has not answered")
        + (asked == null ? ", without asking the availability check"
        : ": it asked the availability check, with " + asked.count() + " seats free, and the check "
        + (throwing.contains(who) ? "threw" : "failed") + ". A sold-out show has nothing to ask about, and its "
        + "answer is false whatever the check would say: decide \"sold out\" from the count before asking")
        + evidence.inCode() + ".");
  }

  /** The availability check the counter is given: notes the evidence, then waits for the test (or throws). */
  private Future<Boolean> check(String who) {
    int count = counter == null ? seats : counter.freeSeats();
    String site = CallSite.ofCurrentCall().orElse(null);
    String runner = threads.get(Thread.currentThread());
    evidence.calls.add(new SceneEvidence.Call(who, count, site, who.equals(runner) ? null : runner));
    if (throwing.contains(who)) {
      throw new AvailabilityServiceDown(CLIENT_CLOSED);
    }
    return check.apply(who);
  }

  /** Makes {@code who}'s availability check throw when it is called, instead of returning a future. */
  void throwFor(String who) {
    throwing.add(who);
  }

  /** {@code who} asks for a seat: one task of the context runs reserve(), and the context then runs what follows. */
  void reserve(String who) {
    reserveTogether(List.of(who));
  }

  /** The {@code group} ask for a seat at the same moment: one task each, queued together, as requests would be. */
  void reserveTogether(List<String> group) {
    callers.addAll(group);
    for (String who : group) {
      context.runOnContext(v -> run(who));
    }
    settle();
  }

  private void run(String who) {
    threads.put(Thread.currentThread(), who);
    try {
      outcomes.put(who, Outcome.of(counter.reserve(Fresh.copyOf(who))));
    } catch (Throwable error) {
      outcomes.put(who, Outcome.failed(error));
    } finally {
      threads.remove(Thread.currentThread());
    }
  }

  /** Waits for call number {@code n} (from 1) of the check, and makes sure it was made for {@code who}. */
  Gate<Boolean> awaitCheck(int n, String who) {
    settle();
    if (check.calls() < n) {
      throw new AssertionFailedError(who + "'s reservation did not call the availability check" + (hasAnswered(who)
          ? "; it answered " + outcome(who) + " without asking" : ", and it is not running: it waits for something")
          + ". Every reservation of a free seat must ask AvailabilityCheck.check(who) before it answers.");
    }
    return gateOf(check.calledSoFar().get(n - 1), who);
  }

  /**
   * After the previous holder's check ended with {@code how}, waits for call number {@code n}, made by the waiting
   * reservation of {@code who}. A correct solution makes it at once; the bounded wait proves a broken one never does.
   */
  Gate<Boolean> awaitNextCheck(int n, String who, String how, String path) {
    settle();
    if (check.arrivesWithin(n, STUCK_MILLIS)) {
      settle();
      return gateOf(check.calledSoFar().get(n - 1), who);
    }
    settle();
    throw evidence.notLetIn(who, how, path, LockCensus.heldLocalLocks(stage.vertx));
  }

  private static Gate<Boolean> gateOf(Gate<Boolean> gate, String who) {
    require(who.equals(gate.argument()), "The availability check was called for " + gate.argument() + " where the "
        + "test expected " + who + ". reserve(who) must ask about that same person: check(who).");
    return gate;
  }

  /** Answers one check the way {@code answer} says, then lets the context run everything that follows. */
  void release(Gate<Boolean> gate, Answer answer) {
    deliver(List.of(gate), Map.of(String.valueOf(gate.argument()), answer));
  }

  /** Answers {@code gates} in the order given, in one task of the context, then lets the context run what follows. */
  private void deliver(List<Gate<Boolean>> gates, Map<String, Answer> script) {
    int before = freeSeats();
    List<Gate.Release> releases = new ArrayList<>();
    List<String> words = new ArrayList<>();
    for (Gate<Boolean> gate : gates) {
      String who = String.valueOf(gate.argument());
      Answer answer = script.getOrDefault(who, Answer.YES);
      releases.add(switch (answer) {
        case NO -> gate.opening(false);
        case FAIL -> gate.failing(new AvailabilityServiceDown(OUTAGE));
        default -> gate.opening(true);
      });
      evidence.answeredChecks.add(who);
      words.add(switch (answer) {
        case NO -> "answered " + who + "'s check with no";
        case FAIL -> "failed " + who + "'s check";
        default -> "answered " + who + "'s check with yes";
      });
    }
    Gate.releaseTogether(releases);
    lastStep = String.join(" and ", words);
    settle();
    int after = freeSeats();
    for (Gate<Boolean> gate : gates) {
      String who = String.valueOf(gate.argument());
      evidence.deliveries.add(new SceneEvidence.Delivery(who, script.getOrDefault(who, Answer.YES), before, after,
          gates.size()));
    }
  }

  /**
   * Answers checks until every caller has answered. Whenever several checks are in flight at once, the one whose
   * caller comes first in {@code priority} is answered first: at {@link Pace#TOGETHER} all of them in one task, at
   * {@link Pace#ONE_AT_A_TIME} only that one, and the context runs all it started before the next.
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

  /** A caller has no answer, no check is in flight, the context is idle: give it a moment, then call it stuck. */
  private void awaitProgress() {
    int calls = check.calls();
    if (check.arrivesWithin(calls + 1, STUCK_MILLIS)) {
      settle();
      return;
    }
    settle();
    if (!unanswered().isEmpty()) {
      throw evidence.stuck(unanswered(), lastStep, LockCensus.heldLocalLocks(stage.vertx));
    }
  }

  /** Asserts that {@code who} has answered {@code expected}; {@code because} says why that is the right answer. */
  void assertAnswer(String who, Outcome<Boolean> expected, String because) {
    settle();
    require(hasAnswered(who), who + "'s reservation has not answered, though " + because + ". "
        + evidence.borrowed(who) + "Answer every reservation once its check has answered.");
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

  String soldTo() {
    return callers.stream().filter(who -> Boolean.TRUE.equals(outcome(who).value())).collect(Collectors.joining(", "));
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
   * Lets the context run until it has nothing left to do: no task running, none queued, every reservation either
   * answered or suspended in an await. A context still held after {@link #STUCK_MILLIS} is held by a task that waits
   * without letting it go, and the test says which one and where.
   */
  void settle() {
    if (!ContextSettle.settleUnlessHeld(context, Duration.ofMillis(STUCK_MILLIS), WAIT)) {
      deadlocked = true;
      throw evidence.contextHeld(ContextSettle.holder(context).orElse(null), threads, lastStep,
          pendingChecks().stream().map(g -> String.valueOf(g.argument())).toList());
    }
    int inFlight = pendingChecks().size();
    if (inFlight > evidence.mostInFlight) {
      evidence.mostInFlight = inFlight;
      evidence.heldAtMostInFlight = LockCensus.heldLocalLocks(stage.vertx);
    }
  }

  @Override
  public void close() {
    stage.close(deadlocked);
  }

  /** For a message: "8 s". */
  static String inWords(Duration d) {
    return Await.inWords(d);
  }
}
