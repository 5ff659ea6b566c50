package io.looplab.grader.races.scene;

import io.looplab.grader.Outcome;
import io.looplab.grader.races.SeatTally;
import io.looplab.grader.sync.Gate;
import io.looplab.grader.sync.GatedDependency;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.looplab.grader.testkit.Checks.require;

/**
 * One show for a race test of a seat counter: the gated availability check the counter talks to, who asked for a
 * seat and what each heard, and the test's steps that answer the checks in a chosen order and pace until everyone
 * has an answer. What a counter is, how a reservation runs on its context, how a context is let run until idle,
 * and what the messages say about a lost update or a stuck reservation belong to the exercise, in a subclass: the
 * exercise's own scene, compiled with its graded tests.
 *
 * <p>The messages written here use the words both lost-update exercises use: "reservation", "reserve(who)", and
 * "AvailabilityCheck.check(who)".
 */
public abstract class SeatScene {

  /** How long the test waits for what a correct solution does at once: a call to the check, a reply. */
  public static final Duration WAIT = Duration.ofSeconds(5);

  /**
   * How long a reservation may stay silent, with no check in flight and nothing left for its context to run, before
   * the test calls it stuck (in practice: waiting for a lock nobody will release). A correct solution moves on within
   * microseconds of being let in, so only a broken one ever waits this out.
   */
  public static final long STUCK_MILLIS = 1_000;

  private final int seats;
  /** The availability check the counter is given; the subclass passes its calls on to it. */
  protected final GatedDependency<String, Boolean> check = new GatedDependency<>();
  private final Callers callers = new Callers();
  private final Set<String> throwing = ConcurrentHashMap.newKeySet();
  /** Whose checks the test answered, in the order it answered them. */
  private final List<String> answeredChecks = new CopyOnWriteArrayList<>();
  private volatile Pace pace = Pace.ONE_AT_A_TIME;
  /** What the test did last, for the messages. */
  private volatile String lastStep = "started the reservations";

  protected SeatScene(int seats) {
    this.seats = seats;
  }

  /** Starts the reservations of {@code group}, one after another, as requests queued together would be. */
  protected abstract void start(List<String> group);

  /**
   * Answers {@code gates} in the order given, in one task of the counter's context where the design allows it, then
   * lets the context run everything that follows. Each answer is {@code script}'s for its caller, else
   * {@link Answer#YES}; the subclass notes each with {@link #noteAnswered} and the whole step with {@link #stepTaken}.
   */
  protected abstract void deliver(List<Gate<Boolean>> gates, Map<String, Answer> script);

  /** Lets the counter's context run until it has nothing left to do. */
  public abstract void settle();

  /** The counter's count, read on its context. */
  public abstract int freeSeats();

  /**
   * The failure for callers that never answered though no check is in flight, the context is idle and nothing
   * changed for {@link #STUCK_MILLIS}.
   */
  protected abstract AssertionError stuck(List<String> unanswered);

  /**
   * What a message adds when {@code who} has not answered: it follows "who's reservation has not answered, though
   * (because)" and precedes "Answer every reservation once its check has answered."
   */
  protected abstract String unansweredBecause(String who);

  /** Where the learner's code called the check, for the end of a message (see {@link CheckCalls#inCode}). */
  protected abstract String inCode();

  public int seats() {
    return seats;
  }

  /** Makes {@code who}'s availability check throw when it is called, instead of returning a future. */
  public void throwFor(String who) {
    throwing.add(who);
  }

  /** True when the test made {@code who}'s check throw ({@link #throwFor}). */
  protected boolean throwsFor(String who) {
    return throwing.contains(who);
  }

  /** {@code who} asks for a seat; the counter's context then runs what follows. */
  public void reserve(String who) {
    reserveTogether(List.of(who));
  }

  /** The {@code group} ask for a seat at the same moment; the counter's context then runs what they started. */
  public void reserveTogether(List<String> group) {
    callers.asked(group);
    start(group);
    settle();
  }

  /** {@code who} heard {@code outcome}. */
  protected void heard(String who, Outcome<Boolean> outcome) {
    callers.heard(who, outcome);
  }

  /** Makes sure {@code gate}, the check the test expected for {@code who}, was called for {@code who}. */
  protected static Gate<Boolean> gateOf(Gate<Boolean> gate, String who) {
    require(who.equals(gate.argument()), "The availability check was called for " + gate.argument() + " where the "
        + "test expected " + who + ". reserve(who) must ask about that same person: check(who).");
    return gate;
  }

  /** Answers one check the way {@code answer} says, then lets the context run everything that follows. */
  public void release(Gate<Boolean> gate, Answer answer) {
    deliver(List.of(gate), Map.of(String.valueOf(gate.argument()), answer));
  }

  /** Notes that the test answers {@code who}'s check now, and returns the step in words. */
  protected String noteAnswered(String who, Answer answer) {
    answeredChecks.add(who);
    return answer.stepInWords(who);
  }

  /** The test's last step was {@code steps}, all in one go: "answered ada's check with yes and failed bob's check". */
  protected void stepTaken(List<String> steps) {
    lastStep = String.join(" and ", steps);
  }

  /** What the test did last, for a message's "after the test ...". */
  protected String lastStep() {
    return lastStep;
  }

  /**
   * Answers checks until every caller has answered. Whenever several checks are in flight at once, the one whose
   * caller comes first in {@code priority} is answered first: at {@link Pace#TOGETHER} all of them in one task, at
   * {@link Pace#ONE_AT_A_TIME} only that one, and the context runs all it started before the next. A solution that
   * lets one reservation at a time reach the check leaves the test no choice, which is fine: every order must give
   * the same count.
   */
  public void driveToTheEnd(List<String> priority, Map<String, Answer> script, Pace pace) {
    this.pace = pace;
    settle();
    int released = 0;
    while (!callers.unanswered().isEmpty()) {
      List<Gate<Boolean>> now = ReleaseOrders.nextToAnswer(pendingChecks(), priority, pace);
      if (now.isEmpty()) {
        awaitProgress();
        continue;
      }
      released += now.size();
      require(released <= 2 * callers.count(), "The availability check was called " + check.calls() + " times "
          + "for " + callers.count() + " reservations. Ask once per reservation.");
      deliver(now, script);
    }
  }

  /**
   * A caller has no answer yet, no check is in flight, and the context has nothing left to run. Give the code
   * {@link #STUCK_MILLIS} to make another call (a timer could be involved) before calling it stuck.
   */
  private void awaitProgress() {
    int calls = check.calls();
    if (check.arrivesWithin(calls + 1, STUCK_MILLIS)) {
      settle();
      return;
    }
    settle();
    if (!callers.unanswered().isEmpty()) {
      throw stuck(callers.unanswered());
    }
  }

  /** Asserts that {@code who} has answered {@code expected}; {@code because} says why that is the right answer. */
  public void assertAnswer(String who, Outcome<Boolean> expected, String because) {
    settle();
    require(hasAnswered(who), who + "'s reservation has not answered, though " + because + unansweredBecause(who)
        + "Answer every reservation once its check has answered.");
    Outcome<Boolean> actual = outcome(who);
    require(actual.equals(expected), who + "'s reservation should answer " + expected + ", because " + because
        + ", but it answered " + actual + ". All answers: " + answers() + "; " + freeSeats() + " of " + seats
        + " seats free now" + inCode() + ".");
  }

  /** Asserts the count after {@code story}, as "after (story), freeSeats() should be (expected)". */
  public void assertFreeSeats(int expected, String story) {
    int free = freeSeats();
    require(free == expected, "After " + story + ", freeSeats() should be " + expected + ", but it is " + free
        + ". Answers: " + answers() + ".");
  }

  /** The verdict on the count: the seats at the start, the count now, and the callers told true. */
  public SeatTally tally() {
    return new SeatTally(seats, freeSeats(), sold(), soldTo());
  }

  /** The test's order of answers: "the test answered the checks in this order: ada, then bob, (pace)". */
  public String answeringInWords() {
    return "the test answered the checks in this order: " + String.join(", then ", answeredChecks) + ", "
        + pace.words();
  }

  /** The callers told true, as "ada, bob". */
  public String soldTo() {
    return callers.soldTo();
  }

  public int sold() {
    return callers.sold();
  }

  public boolean hasAnswered(String who) {
    return callers.hasAnswered(who);
  }

  public Outcome<Boolean> outcome(String who) {
    return callers.outcome(who);
  }

  /** Every caller's answer, as "ada true, bob no answer yet". */
  public String answers() {
    return callers.answers();
  }

  /** The checks called and not answered yet, in the order called. */
  protected List<Gate<Boolean>> pendingChecks() {
    return check.calledSoFar().stream().filter(Gate::isPending).toList();
  }
}
