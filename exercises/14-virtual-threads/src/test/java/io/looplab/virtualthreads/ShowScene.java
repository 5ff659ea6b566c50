package io.looplab.virtualthreads;

import io.looplab.grader.Outcome;
import io.looplab.grader.leaks.LockCensus;
import io.looplab.grader.races.Fresh;
import io.looplab.grader.races.scene.Answer;
import io.looplab.grader.races.scene.SeatScene;
import io.looplab.grader.sync.CallSite;
import io.looplab.grader.sync.ContextSettle;
import io.looplab.grader.sync.Gate;
import io.looplab.grader.testkit.Await;
import io.looplab.grader.testkit.OnContext;
import io.vertx.core.Context;
import io.vertx.core.Future;
import org.opentest4j.AssertionFailedError;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static io.looplab.virtualthreads.AvailabilityServiceDown.CLIENT_CLOSED;
import static io.looplab.virtualthreads.AvailabilityServiceDown.OUTAGE;

/**
 * One show: the learner's SeatCounter on a virtual-thread context ({@link Stage}), the gated availability check it
 * talks to, and what each caller has heard so far. Each reservation is a task of that context, on a virtual thread of
 * its own, as a request to a virtual-thread verticle is. The scene keeps the evidence a message needs
 * ({@link SceneEvidence}): the count when each check was called, the count before each answer and once everything it
 * started had run. No clock: after each step the test lets the context run until it has nothing left to do
 * ({@link ContextSettle}); a reservation suspended in {@code await()} has nothing to do until its future completes.
 * Here {@link #STUCK_MILLIS} also bounds how long a task may keep the context while it waits itself (parked,
 * blocked, sleeping) before the test calls it a deadlock; a task only slow to get a core is runnable, and is given up
 * to {@link #WAIT}.
 */
final class ShowScene extends SeatScene implements AutoCloseable {

  private final Stage stage;
  private final Context context;
  /** Which reservation each virtual thread runs, to name the one that holds the context. */
  private final Map<Thread, String> threads = new ConcurrentHashMap<>();
  final SceneEvidence evidence = new SceneEvidence(this);
  private SeatCounter counter;
  private volatile boolean deadlocked;

  ShowScene(int seats) {
    this(seats, Stage.open());
  }

  private ShowScene(int seats, Stage stage) {
    super(seats);
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
    SceneEvidence.Call asked = evidence.calls.firstFor(who);
    throw new AssertionFailedError(who + "'s reservation should answer false, because the show was sold out (0 of "
        + seats() + " seats free), but it " + (hasAnswered(who) ? "answered " + actual : "has not answered")
        + (asked == null ? ", without asking the availability check"
        : ": it asked the availability check, with " + asked.count() + " seats free, and the check "
        + (throwsFor(who) ? "threw" : "failed") + ". A sold-out show has nothing to ask about, and its "
        + "answer is false whatever the check would say: decide \"sold out\" from the count before asking")
        + evidence.inCode() + ".");
  }

  /** The availability check the counter is given: notes the evidence, then waits for the test (or throws). */
  private Future<Boolean> check(String who) {
    int count = counter == null ? seats() : counter.freeSeats();
    String site = CallSite.ofCurrentCall().orElse(null);
    String runner = threads.get(Thread.currentThread());
    evidence.calls.add(new SceneEvidence.Call(who, count, site, who.equals(runner) ? null : runner));
    if (throwsFor(who)) {
      throw new AvailabilityServiceDown(CLIENT_CLOSED);
    }
    return check.apply(who);
  }

  /**
   * Each of {@code group} is a task of its own, queued together, as requests would be: one task of the context runs
   * reserve() on a virtual thread of its own.
   */
  @Override
  protected void start(List<String> group) {
    for (String who : group) {
      context.runOnContext(v -> run(who));
    }
  }

  private void run(String who) {
    threads.put(Thread.currentThread(), who);
    try {
      heard(who, Outcome.of(counter.reserve(Fresh.copyOf(who))));
    } catch (Throwable error) {
      heard(who, Outcome.failed(error));
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

  /** Answers {@code gates} in the order given, in one task of the context, then lets the context run what follows. */
  @Override
  protected void deliver(List<Gate<Boolean>> gates, Map<String, Answer> script) {
    int before = freeSeats();
    List<Gate.Release> releases = new ArrayList<>();
    List<String> steps = new ArrayList<>();
    for (Gate<Boolean> gate : gates) {
      String who = String.valueOf(gate.argument());
      Answer answer = script.getOrDefault(who, Answer.YES);
      releases.add(answer.releasing(gate, () -> new AvailabilityServiceDown(OUTAGE)));
      steps.add(noteAnswered(who, answer));
    }
    Gate.releaseTogether(releases);
    stepTaken(steps);
    settle();
    int after = freeSeats();
    for (Gate<Boolean> gate : gates) {
      String who = String.valueOf(gate.argument());
      evidence.deliveries.add(new SceneEvidence.Delivery(who, script.getOrDefault(who, Answer.YES), before, after,
          gates.size()));
    }
  }

  @Override
  protected AssertionError stuck(List<String> unanswered) {
    return evidence.stuck(unanswered, lastStep(), LockCensus.heldLocalLocks(stage.vertx));
  }

  @Override
  protected String unansweredBecause(String who) {
    return ". " + evidence.borrowed(who);
  }

  @Override
  protected String inCode() {
    return evidence.inCode();
  }

  @Override
  public int freeSeats() {
    return OnContext.call(context, counter::freeSeats, WAIT);
  }

  /**
   * Lets the context run until it has nothing left to do: no task running, none queued, every reservation either
   * answered or suspended in an await. A context still held after {@link #STUCK_MILLIS} is held by a task that waits
   * without letting it go, and the test says which one and where.
   */
  @Override
  public void settle() {
    if (!ContextSettle.settleUnlessHeld(context, Duration.ofMillis(STUCK_MILLIS), WAIT)) {
      deadlocked = true;
      throw evidence.contextHeld(ContextSettle.holder(context).orElse(null), threads, lastStep(),
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
