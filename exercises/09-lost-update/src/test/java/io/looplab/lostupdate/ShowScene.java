package io.looplab.lostupdate;

import io.looplab.grader.Outcome;
import io.looplab.grader.leaks.LockCensus;
import io.looplab.grader.races.Fresh;
import io.looplab.grader.races.scene.Answer;
import io.looplab.grader.races.scene.SeatScene;
import io.looplab.grader.sync.CallSite;
import io.looplab.grader.sync.Gate;
import io.looplab.grader.testkit.Await;
import io.looplab.grader.testkit.OnContext;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.SingleThreadEventExecutor;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;
import org.opentest4j.AssertionFailedError;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.looplab.lostupdate.AvailabilityServiceDown.CLIENT_CLOSED;
import static io.looplab.lostupdate.AvailabilityServiceDown.OUTAGE;

/**
 * One show: a SeatCounter on an event-loop context of its own, the gated availability check it talks to, and what
 * each caller has heard so far ({@link SeatScene} keeps the callers and drives the answers). Every call into the
 * counter runs on that one context, as requests to one verticle do. Besides the answers, the scene keeps the evidence
 * a message needs ({@link SceneEvidence}): the count each check was called at, the count just before and just after
 * each answer was delivered, and which answer was being delivered when a check was called. It is compiled with the
 * graded tests, so the guard never mistakes its frames for the learner's code.
 */
final class ShowScene extends SeatScene {

  private final Vertx vertx;
  private final Context context;
  /** The calls, the deliveries and what they say about a lost update. */
  private final SceneEvidence evidence = new SceneEvidence(this);
  private SeatCounter counter;
  /** Whose answer the test is delivering right now, on the loop; null between deliveries. */
  private volatile String answering;

  ShowScene(Vertx vertx, int seats) {
    super(seats);
    this.vertx = vertx;
    this.context = vertx.getOrCreateContext();
    OnContext.run(context, () -> counter = new SeatCounter(vertx, seats, this::check), WAIT);
  }

  /** The availability check the counter is given: notes the evidence, then waits for the test (or throws). */
  private Future<Boolean> check(String who) {
    int count = counter == null ? seats() : counter.freeSeats();
    String site = CallSite.ofCurrentCall().orElse(null);
    evidence.calls.add(new SceneEvidence.Call(who, count, answering, site));
    if (throwsFor(who)) {
      AvailabilityServiceDown error = new AvailabilityServiceDown(CLIENT_CLOSED);
      evidence.errorsGiven.put(who, error);
      throw error;
    }
    return check.apply(who);
  }

  /**
   * The reserve() calls of {@code group} run one after another in one task of the counter's event loop, as requests
   * queued together would, and the loop then runs what they started.
   */
  @Override
  protected void start(List<String> group) {
    OnContext.run(context, () -> group.forEach(who -> {
      Future<Boolean> answer;
      try {
        answer = counter.reserve(Fresh.copyOf(who));
      } catch (RuntimeException e) {
        heard(who, Outcome.failed(e));
        if (throwsFor(who) && AvailabilityServiceDown.causedBy(e, CLIENT_CLOSED)) {
          return; // the check's own exception, passed on: the caller heard the error
        }
        throw new AssertionFailedError("reserve(\"" + who + "\") threw " + e + " instead of returning a future. "
            + "Report a problem by failing the future it returns.", e);
      }
      if (answer == null) {
        throw new AssertionFailedError("reserve(\"" + who + "\") returned null instead of a future.");
      }
      answer.onComplete(ar -> heard(who, ar.succeeded() ? Outcome.of(Boolean.TRUE.equals(ar.result()))
          : Outcome.failed(ar.cause())));
    }), WAIT);
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

  /**
   * Answers {@code gates} in the order given, all in one task of the counter's event loop, noting the count just
   * before and after each, then lets the loop run everything that follows.
   */
  @Override
  protected void deliver(List<Gate<Boolean>> gates, Map<String, Answer> script) {
    List<Gate.Release> releases = new ArrayList<>();
    List<String> steps = new ArrayList<>();
    for (Gate<Boolean> gate : gates) {
      String who = String.valueOf(gate.argument());
      Answer answer = script.getOrDefault(who, Answer.YES);
      Gate.Release release = answer.releasing(gate, () -> {
        AvailabilityServiceDown error = new AvailabilityServiceDown(OUTAGE);
        evidence.errorsGiven.put(who, error);
        return error;
      });
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
      steps.add(noteAnswered(who, answer));
    }
    try {
      Gate.releaseTogether(releases);
    } catch (IllegalArgumentException checkedFromSeveralContexts) {
      // The checks were called from different contexts (a design that spreads reservations over verticles): no
      // single task can answer them all, so they are answered one after another.
      releases.forEach(Gate::releaseTogether);
    }
    stepTaken(steps);
    settle();
    int settled = freeSeats();
    gates.forEach(gate -> evidence.settledAfter.put(String.valueOf(gate.argument()), settled));
  }

  @Override
  protected AssertionError stuck(List<String> unanswered) {
    return evidence.stuck(unanswered, lastStep(), LockCensus.heldLocalLocks(vertx));
  }

  @Override
  protected String unansweredBecause(String who) {
    return " and no check is in flight. ";
  }

  @Override
  protected String inCode() {
    return evidence.inCode();
  }

  /** Each caller told true holds one seat: the seats taken equal the seats sold, and the count stays >= 0. */
  void assertNoUpdateLost() {
    evidence.assertNoUpdateLost();
  }

  /** No more callers told true than there were seats, and never a negative count. */
  void assertNotOversold() {
    evidence.assertNotOversold();
  }

  @Override
  public int freeSeats() {
    return OnContext.call(context, counter::freeSeats, WAIT);
  }

  /**
   * Lets the counter's event loop run until it has nothing left to do: every task that the last step queued, and
   * every task those queued, has run. Then counts the checks in flight. No clock involved: a probe task runs on the
   * loop and looks at its queue, until it finds the queue empty.
   */
  @Override
  public void settle() {
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
