package io.looplab.virtualthreads;

import io.looplab.grader.Outcome;
import io.looplab.grader.races.scene.Answer;
import io.looplab.grader.races.scene.CheckCalls;
import io.looplab.grader.sync.ContextSettle;
import org.opentest4j.AssertionFailedError;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.looplab.virtualthreads.ShowScene.STUCK_MILLIS;

/**
 * What happened in one {@link ShowScene}, beyond the answers: the count when each check was called, the count before
 * each answer and once everything it started had run, and in which order and at which pace the test answered. From
 * that it tells a lost update from an oversold show, a read made before the reservation's turn from checks that
 * overlapped, and a leaked lock from a context that a waiting task keeps for itself.
 */
final class SceneEvidence {

  /**
   * A call to the check: who, the count at that moment, where the learner's code made it, and, when it was made on
   * the virtual thread of another caller's reservation, whose (else null).
   */
  record Call(String who, int count, String site, String onThreadOf) implements CheckCalls.Call {
  }

  /** Answers delivered in one task: the count just before, and once the context had run all they started. */
  record Delivery(String who, Answer answer, int before, int after, int together) {
  }

  private final ShowScene scene;
  final CheckCalls<Call> calls = new CheckCalls<>();
  final List<Delivery> deliveries = new CopyOnWriteArrayList<>();
  /** The most availability checks ever seen in flight at the same time. */
  int mostInFlight;
  /** The local locks held when {@link #mostInFlight} checks were first in flight together. */
  List<String> heldAtMostInFlight = List.of();

  SceneEvidence(ShowScene scene) {
    this.scene = scene;
  }

  /** Each caller told true holds one seat: the seats taken equal the seats sold, and the count stays >= 0. */
  void assertNoUpdateLost() {
    scene.tally().assertEachSaleOneSeat(scene.answers(), scene.answeringInWords(),
        () -> whyWritesWereLost() + inCode(), this::whyOversold);
  }

  private String whyWritesWereLost() {
    if (mostInFlight > 1 && heldAtMostInFlight.size() > 1) {
      return mostInFlight + " availability checks were in flight at the same time (" + calls.countsInWords()
          + "), while "
          + String.join(", ", heldAtMostInFlight) + " were held: each reservation took a lock of its own name, and a "
          + "lock keeps out only those who ask for the same name, so each read the count, awaited its check, then "
          + "wrote the count it had read minus one. One name for every reservation of one counter: make it of the "
          + "counter alone (an instance field), never of the caller or of the request";
    }
    if (mostInFlight > 1) {
      return mostInFlight + " availability checks were in flight at the same time (" + calls.countsInWords()
          + "): each "
          + "reservation read the count, awaited its check, then wrote the count it had read minus one. On a virtual "
          + "thread, await() reads like a plain blocking call, but it suspends the reservation and frees the "
          + "verticle's context, which runs the next request in the gap. Make the read, the decision and the write "
          + "one critical section, held across the await: take a Vert.x lock first (Lock lock = "
          + "vertx.sharedData().getLocalLock(name).await()) and release it in a finally block after the write. A "
          + "lock around the write alone does not help: the value it writes comes from a stale read";
    }
    Delivery stale = deliveries.stream().filter(d -> d.answer() == Answer.YES && d.together() == 1)
        .filter(d -> Boolean.TRUE.equals(scene.outcome(d.who()).value())).filter(d -> d.after() != d.before() - 1)
        .findFirst().orElse(null);
    if (stale != null) {
      Call call = calls.firstFor(stale.who());
      if (call != null && call.count() == stale.before()) {
        return "The checks ran one at a time, so something did serialise the reservations. " + stale.who() + "'s "
            + "check was called when the count was already " + call.count() + ", once the reservations ahead had "
            + "written; yet when it said yes, the count went from " + stale.before() + " to " + stale.after()
            + ", not " + (stale.before() - 1) + ": the write was computed from a count read before " + stale.who()
            + "'s turn began. The read of freeSeats happened before the reservation entered the critical section "
            + "(before its lock was taken). Move the read inside it: read freeSeats only once the lock is yours";
      }
    }
    return "The checks ran one at a time, so something did serialise the reservations, and yet a write was lost. "
        + "The usual causes: the count was read before the reservation's turn began (before the lock was taken), "
        + "or the turn ended before the write (the lock released before freeSeats was written). The read, the "
        + "decision and the write must all be inside the critical section";
  }

  /** Where the learner's code made the checks, as " (your code called the availability check from ...)". */
  String inCode() {
    return calls.inCode();
  }

  /**
   * Why {@code who} has not answered, when the evidence says: another reservation's check was called on
   * {@code who}'s own virtual thread, which now waits for that check before it can return. Empty otherwise.
   */
  String borrowed(String who) {
    return calls.all().stream().filter(c -> who.equals(c.onThreadOf())).findFirst().map(c -> c.who()
        + "'s availability "
        + "check was called on " + who + "'s virtual thread, which now waits for " + c.who() + "'s check before it can "
        + "return " + who + "'s answer. A callback that runs when " + who + " lets go of the lock (the block of "
        + "withLocalLock, a compose or an onComplete on the lock's future) runs the next reservation's code on "
        + who + "'s thread, and an await() in it suspends " + who + "'s reservation too. On virtual threads, wait for "
        + "the lock with getLocalLock(name).await() and run the critical section in straight-line code, released in "
        + "a finally block" + inCode() + ". ").orElse("");
  }

  /** No more callers told true than there were seats, and never a negative count. */
  void assertNotOversold() {
    scene.tally().assertNotOversold(scene.answeringInWords(), this::whyOversold);
  }

  /** Why more callers were told yes than there were seats, from the checks in flight and the deliveries. */
  private String whyOversold() {
    return (mostInFlight > 1
        ? mostInFlight + " availability checks were in flight at the same time (" + calls.countsInWords()
          + "), and each of "
          + "those reservations decided \"a seat is free\" from a count it read before the others took their seats. "
          + "Re-reading the count at the write (freeSeats - 1 instead of free - 1) fixes the arithmetic, not the "
          + "decision: the read, the decision and the write must be one critical section, held across the await of "
          + "the check."
        : "The checks ran one at a time, yet a reservation decided from a count read before the previous "
          + "reservation wrote: the critical section must cover the read, the decision and the write.")
        + inCode();
  }

  /**
   * The context is still held by one task after {@link ShowScene#STUCK_MILLIS}: a task that waits without letting
   * the context go (a JDK lock, a synchronized block, a sleep). Says which reservation, where it waits, and which
   * suspended reservations it keeps from running again.
   */
  AssertionFailedError contextHeld(Thread holder, Map<Thread, String> threads, String lastStep, List<String> inFlight) {
    String who = holder == null ? null : threads.get(holder);
    String task = who == null ? "a task" : who + "'s reservation";
    String where = holder == null ? "" : ", " + ContextSettle.waitInWords(holder);
    String others = inFlight.isEmpty() ? "the reservation it waits for is suspended in an await, and must run on "
        + "this context again to give back what it holds"
        : String.join(" and ", inFlight.stream().map(p -> p + "'s reservation").toList()) + (inFlight.size() == 1
        ? " is" : " are") + " suspended in the await of a check, and must run on this context again, after the "
        + "answer, to give back what " + (inFlight.size() == 1 ? "it holds" : "they hold");
    return new AssertionFailedError("Deadlock: after the test " + lastStep + ", " + task + " kept the verticle's "
        + "context for " + STUCK_MILLIS + " ms and more, waiting" + where + ". A virtual-thread verticle runs one task "
        + "at a time, and a task lets the context go only when it ends or awaits a Vert.x future. A JDK lock "
        + "(ReentrantLock, synchronized, a Semaphore) or a Thread.sleep waits while keeping the context, so nothing "
        + "else of this verticle can run: here " + others + ", and it cannot. Wait with Future.await() instead: a "
        + "Vert.x lock, Lock lock = vertx.sharedData().getLocalLock(name).await(), released in a finally block"
        + inCode() + ".");
  }

  /**
   * What a reservation that was not let in says: {@code who} was waiting behind a check that ended with {@code how},
   * and did not reach its own check. From the evidence: a lock still held, an answer without asking, or a turn never
   * handed on.
   */
  AssertionFailedError notLetIn(String who, String how, String path, List<String> held) {
    String waited = how + ", and afterwards " + who + "'s reservation, which was waiting for its turn, did not reach "
        + "the availability check within " + STUCK_MILLIS + " ms";
    if (scene.hasAnswered(who)) {
      Outcome<Boolean> answered = scene.outcome(who);
      int free = scene.freeSeats();
      int sold = scene.sold();
      String count = free + sold < scene.seats()
          ? " freeSeats() is " + free + ", though only " + sold + " of the " + scene.seats() + " seats were sold ("
            + (sold == 0 ? "to nobody" : "to " + scene.soldTo()) + "): " + (scene.seats() - sold - free) + " went "
            + "missing on a path where no seat was sold, and the count says sold out when it is not. Every path "
            + "that sells no seat (a no, a failed check, a check that throws) must leave the count as it found it"
          : " With " + free + " seats free, a reservation must ask AvailabilityCheck.check(who) before it answers";
      return new AssertionFailedError(waited + "; it answered " + answered + " instead, without asking." + count
          + inCode() + ".");
    }
    if (!held.isEmpty()) {
      return new AssertionFailedError("Lock leak on the " + path + " path: " + waited + ", and " + String.join(", ",
          held) + " is still held, although the reservation ahead of it has answered. The " + path + " path kept "
          + "the lock, and every later reservation now waits for it until its timeout (10 s by default) fails it. "
          + "Release the lock on every path out of the critical section, an exception included: try { ... } "
          + "finally { lock.release(); }, or withLocalLock(name, () -> ...), which releases it for you" + inCode()
          + ".");
    }
    return new AssertionFailedError("Stuck on the " + path + " path: " + waited + ", and no local lock is held, so "
        + "this is not a leaked Vert.x lock: the reservation waits for a turn that is never handed on. The usual "
        + "causes: a turn handed on only on success (a promise completed only when the reservation succeeds), or "
        + "one that an exception skips. Hand the turn on however the reservation ends: in a finally block"
        + inCode() + ".");
  }

  /** Reservations that never answered, with nothing in flight and the context idle for {@link ShowScene#STUCK_MILLIS}. */
  AssertionFailedError stuck(List<String> stuck, String lastStep, List<String> held) {
    String what = "Stuck: " + String.join(" and ", stuck) + " asked for a seat and never got an answer. After the "
        + "test " + lastStep + ", no availability check was in flight, the verticle's context had nothing left to "
        + "run, and nothing changed for " + STUCK_MILLIS + " ms: " + (stuck.size() == 1 ? "that reservation waits"
        : "those reservations wait") + " for something that will never happen. ";
    if (!held.isEmpty()) {
      return new AssertionFailedError(what + String.join(", ", held) + " is still held, though no reservation that "
          + "holds it has anything left to wait for: a lock leak, a lock taken and not released on that path. Every "
          + "way out of the critical section (a seat, sold out, a no, a failed check) must release it: try { ... } "
          + "finally { lock.release(); }" + inCode() + ".");
    }
    return new AssertionFailedError(what + "No local lock is held, so this is not a leaked Vert.x lock. The usual "
        + "causes: a turn handed on only on success, or a promise that some path never completes. Every way out (a "
        + "seat, sold out, a no, a failed check) must let the next reservation in" + inCode() + ".");
  }
}
