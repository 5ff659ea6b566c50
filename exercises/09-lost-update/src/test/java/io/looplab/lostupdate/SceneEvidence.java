package io.looplab.lostupdate;

import io.looplab.grader.Outcome;
import io.looplab.grader.races.scene.Answer;
import io.looplab.grader.races.scene.CheckCalls;
import org.opentest4j.AssertionFailedError;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

import static io.looplab.lostupdate.ShowScene.STUCK_MILLIS;

/**
 * What happened in one {@link ShowScene}, beyond the answers: the count each check was called at, the count just
 * before and just after each answer was delivered, which answer was being delivered when a check was called, and in
 * which order and at which pace the test answered. From that evidence it tells a lost update from an oversold show,
 * and says how the writes were lost: overlapping checks, a write that landed in a later task, a read made before the
 * reservation's turn, or a turn that ended before the write.
 */
final class SceneEvidence {

  /** A call to the check: who, the count at that moment, and whose answer was being delivered then (or null). */
  record Call(String who, int count, String duringAnswerOf, String site) implements CheckCalls.Call {
  }

  /** An answer delivered to a reservation's check, with the count just before and just after, in the same task. */
  record Delivery(String who, Answer answer, int before, int after) {
  }

  private final ShowScene scene;
  final CheckCalls<Call> calls = new CheckCalls<>();
  final List<Delivery> deliveries = new CopyOnWriteArrayList<>();
  /** The errors the test gave each caller's check, by caller: their own, to be told from one passed on. */
  final Map<String, Throwable> errorsGiven = new ConcurrentHashMap<>();
  /** The count once the loop had run everything that an answer started, by whose answer it was. */
  final Map<String, Integer> settledAfter = new ConcurrentHashMap<>();
  /** The most availability checks ever seen in flight at the same time. */
  int mostInFlight;

  SceneEvidence(ShowScene scene) {
    this.scene = scene;
  }

  /** Each caller told true holds one seat: the seats taken equal the seats sold, and the count stays >= 0. */
  void assertNoUpdateLost() {
    scene.tally().assertEachSaleOneSeat(scene.answers(), scene.answeringInWords(),
        () -> whyWritesWereLost() + inCode(), this::whyOversold);
  }

  /** What the evidence says about a lost write: overlapping checks, a late write, or a read before the turn. */
  private String whyWritesWereLost() {
    if (mostInFlight > 1) {
      String overlap = mostInFlight + " availability checks were in flight at the same time (" + calls.countsInWords()
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
      Call call = calls.firstFor(stale.who());
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

  private Delivery firstYes(Predicate<Delivery> test) {
    return deliveries.stream().filter(d -> d.answer() == Answer.YES)
        .filter(d -> Boolean.TRUE.equals(scene.outcome(d.who()).value())).filter(test).findFirst().orElse(null);
  }

  private Delivery deliveryOf(String who) {
    return deliveries.stream().filter(d -> d.who().equals(who)).findFirst().orElse(null);
  }

  private int countAtCall(String who) {
    Call call = calls.firstFor(who);
    return call == null ? Integer.MIN_VALUE : call.count();
  }

  /** Where the learner's code made the checks, as " (your code called the availability check from ...)". */
  String inCode() {
    return calls.inCode();
  }

  /** No more callers told true than there were seats, and never a negative count. */
  void assertNotOversold() {
    scene.tally().assertNotOversold(scene.answeringInWords(), this::whyOversold);
  }

  /** Why more callers were told yes than there were seats, from the checks in flight and the deliveries. */
  private String whyOversold() {
    Delivery late = firstYes(this::landedLater);
    return (mostInFlight > 1
        ? mostInFlight + " availability checks were in flight at the same time (" + calls.countsInWords() + "), and "
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
        + inCode();
  }

  /**
   * What a reservation that was not let in says: {@code who} was waiting behind a check that ended with {@code how},
   * and did not reach its own check. From the evidence: an error passed on to the next in line, a lock still held
   * ({@code held}), or a reservation that waits with no lock held.
   */
  AssertionFailedError notLetIn(String who, String how, String path, List<String> held) {
    String waited = how + ", and afterwards " + who + "'s reservation, which was waiting for its turn, did not reach "
        + "the availability check within " + STUCK_MILLIS + " ms";
    if (scene.hasAnswered(who)) {
      Outcome<Boolean> answered = scene.outcome(who);
      Throwable passedOn = answered.error();
      boolean sameError = passedOn != null && errorsGiven.values().stream().anyMatch(given -> isOrWraps(passedOn,
          given));
      if (sameError) {
        return new AssertionFailedError("A failure passed on to the next in line: " + waited + "; it answered "
            + answered + ", the very error of the reservation ahead of it, without asking its own check. "
            + (held.isEmpty() ? "No local lock is held, so this is not a lock leak: " : "")
            + "the turns are handed on through a chain of futures that a failure poisoned. tail.compose(v -> "
            + "next) and tail.map(...) skip their function once tail has failed, so every reservation after a "
            + "failed one fails with its error. Start each reservation whatever the previous one ended with: "
            + "tail.transform(done -> next), or tail.eventually(() -> next)" + inCode() + ".");
      }
      return new AssertionFailedError(waited + "; it answered " + answered + " instead, without asking. With "
          + scene.freeSeats() + " seats free, a reservation must ask AvailabilityCheck.check(who) before it answers"
          + inCode() + ".");
    }
    if (!held.isEmpty()) {
      return new AssertionFailedError("Lock leak on the " + path + " path: " + waited + ", and " + String.join(", ",
          held) + " is still held, although the reservation ahead of it has answered. The " + path + " path kept "
          + "the lock: a lock leak, and every later reservation now waits for that lock until its timeout (10 s by "
          + "default) fails it. Release the lock on every path out of the critical section: withLocalLock(name, "
          + "() -> ...) does it for you whatever the future you return does, and even when the block throws; by "
          + "hand, release it in andThen or onComplete, not in onSuccess, and also when the call throws"
          + inCode() + ".");
    }
    return new AssertionFailedError("Stuck on the " + path + " path: " + waited + ", and no local lock is held, so "
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

  /**
   * What reservations that never answered say, once no check was in flight, the event loop had nothing left to run,
   * and nothing changed for {@link ShowScene#STUCK_MILLIS}: a lock leak when a local lock is still held
   * ({@code held}), a turn never handed on when none is.
   */
  AssertionFailedError stuck(List<String> stuck, String lastStep, List<String> held) {
    String what = "Stuck: " + String.join(" and ", stuck) + " asked for a seat and never got an answer. After the "
        + "test " + lastStep + ", no availability check was in flight, the event loop had nothing left to run, and "
        + "nothing changed for " + STUCK_MILLIS + " ms: " + (stuck.size() == 1 ? "that reservation waits"
        : "those reservations wait") + " for something that will never happen. ";
    if (!held.isEmpty()) {
      return new AssertionFailedError(what + String.join(", ", held) + " is still held, though no reservation that "
          + "holds it has anything left to wait for: a lock leak, a lock taken and not released on that path. Every "
          + "way out of the critical section (a seat, sold out, a no, a failed check) must release it: "
          + "withLocalLock(name, () -> ...) releases it for you when the future you return completes, however it "
          + "completes" + inCode() + ".");
    }
    return new AssertionFailedError(what + "No local lock is held, so this is not a leaked Vert.x lock. The usual "
        + "causes: a turn handed on only on success (a queue or chain continued in onSuccess or compose, a "
        + "\"busy\" flag reset only when a reservation succeeds), or a promise that some path never completes. "
        + "Every way out (a seat, sold out, a no, a failed check) must let the next reservation in" + inCode()
        + ".");
  }
}
