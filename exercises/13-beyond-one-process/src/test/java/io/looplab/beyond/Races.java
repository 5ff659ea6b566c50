package io.looplab.beyond;

import io.looplab.beyond.Services.LedgerRead;
import io.looplab.beyond.Services.LedgerWrite;
import io.looplab.grader.sync.Gate;
import io.looplab.grader.sync.GatedDependency;
import org.opentest4j.AssertionFailedError;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import static io.looplab.beyond.Limits.STUCK_MILLIS;
import static io.looplab.beyond.Limits.OVERLAP_MILLIS;
import static io.looplab.beyond.Limits.TURN_MILLIS;
import static io.looplab.beyond.Limits.WAIT;
import static io.looplab.grader.testkit.Checks.require;

/**
 * The race both parts run: node A reserves and its call to the test's services is held, then node B reserves, and
 * the test releases the calls in a given order. Whether the second node reaches its call while the first one's is
 * held depends on the design. With an atomic update it does, and with a lock or a transaction it waits its turn.
 * Both are right; the race accepts either, and reports what callers were told. To tell "waits its turn" from
 * "slow", it gives the second node {@link Limits#OVERLAP_MILLIS}: only a design that serialises the nodes pays
 * that wait.
 */
final class Races {

  private final Services services;
  private final Reservations reservations;

  Races(Services services, Reservations reservations) {
    this.services = services;
    this.reservations = reservations;
  }

  /** The race of part one: the availability checks are held. */
  Race checkRace(Nodes nodes, String show, int[] order) {
    services.checksAnsweredAtOnce = Map.of();
    services.heldChecks = new GatedDependency<>();
    return race(nodes, show, order, services.heldChecks, "availability check", who -> true, null);
  }

  /** The race of part two: the ledger reads are held, and so are the writes. */
  Race readRace(Nodes nodes, String show, int[] order) {
    services.readsAnsweredAtOnce = false;
    services.heldReads = new GatedDependency<>();
    services.writesAppliedAtOnce = false;
    services.heldWrites = new GatedDependency<>();
    try {
      return race(nodes, show, order, services.heldReads, "ledger read", LedgerRead::free, services.heldWrites);
    } finally {
      services.writesAppliedAtOnce = true;
      services.heldWrites.calledSoFar().stream().filter(Gate::isPending).forEach(gate -> gate.open(null));
    }
  }

  /**
   * Node A reserves, and its call to the test is held. Then node B reserves. If B's call arrives too, both are
   * released in {@code order}; if B is waiting its turn, A's is released first and B's once it comes. When
   * {@code writes} is given (the ledger), writes are held too: after A's call is released, A's write waits while the
   * test looks whether B's call comes meanwhile, which it must not while A still holds the lock.
   */
  private <A, T> Race race(Nodes nodes, String show, int[] order, GatedDependency<A, T> calls, String call,
      Function<A, T> answer, GatedDependency<LedgerWrite, Void> writes) {
    CompletableFuture<String> ada = reservations.reserve(nodes.a(), show, "ada");
    awaitCall(calls, 1, ada, "ada's (node A)", call, WAIT.toMillis(), "ada's reservation on node A never made its "
        + call + " (waited " + WAIT.toSeconds() + " s), although nobody else was reserving."
        + reservations.whatCameBefore());
    CompletableFuture<String> bob = reservations.reserve(nodes.b(), show, "bob");
    boolean overlapped = calls.arrivesWithin(2, OVERLAP_MILLIS);
    boolean readDuringWrite = false;
    String releases;
    if (overlapped) {
      List<Gate<T>> gates = calls.awaitCalls(2);
      List<CompletableFuture<String>> answers = List.of(ada, bob);
      for (int i : order) {
        open(gates.get(i), answer);
        finish(answers.get(i), writes);
      }
      releases = "both " + call + "s were in flight at once, and the test answered " + (order[0] == 0
          ? "node A's first" : "node B's first");
    } else {
      open(calls.awaitCalls(1).get(0), answer);
      if (writes != null && writeOrAnswer(writes, 1, ada)) {
        // A has read, and its write is held: B must still be waiting for the lock.
        readDuringWrite = calls.arrivesWithin(2, TURN_MILLIS);
        if (readDuringWrite) {
          open(calls.awaitCalls(2).get(1), answer);      // B gets the count as it was before A's write
          writes.awaitCalls(1).get(0).open(null);         // then A's write lands
          finish(ada, writes);
          finish(bob, writes);
          return new Race(reservations.answerOf(ada), reservations.answerOf(bob), false, true, "node B made its "
              + call + " while node A's write was still held by the test, after node A's " + call + " had been "
              + "answered");
        }
        writes.awaitCalls(1).get(0).open(null);
      }
      finish(ada, writes);
      // Now that A has answered, B may make its call, or find the show sold out and answer without one.
      boolean called = callOrAnswer(calls, 2, bob, STUCK_MILLIS, "bob's reservation on node B neither made its "
          + call + " nor answered, even " + STUCK_MILLIS + " ms after ada's on node A was answered with "
          + reservations.answerOf(ada) + ". Is node B waiting for a lock that node A never released?");
      if (called) {
        open(calls.awaitCalls(2).get(1), answer);
      }
      finish(bob, writes);
      releases = "node B waited for node A to finish before it " + (called ? "made its " + call
          : "answered, without a " + call);
    }
    return new Race(reservations.answerOf(ada), reservations.answerOf(bob), overlapped, readDuringWrite, releases);
  }

  /**
   * Waits until write number {@code n} arrives (true) or {@code reservation} answers without it (false), within
   * {@link Limits#WAIT}; a reservation that does neither is left to {@link Reservations#answerOf} to report.
   */
  private static boolean writeOrAnswer(GatedDependency<LedgerWrite, Void> writes, int n,
      CompletableFuture<String> reservation) {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!writes.arrivesWithin(n, 20)) {
      if (reservation.isDone() || System.nanoTime() > deadline) {
        return writes.calls() >= n;
      }
    }
    return true;
  }

  /** Lets {@code reservation} finish: releases each held ledger write as it comes, until the node answers. */
  private void finish(CompletableFuture<String> reservation, GatedDependency<LedgerWrite, Void> writes) {
    if (writes == null) {
      reservations.answerOf(reservation);
      return;
    }
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!reservation.isDone() && System.nanoTime() < deadline) {
      writes.calledSoFar().stream().filter(Gate::isPending).forEach(gate -> gate.open(null));
      writes.arrivesWithin(writes.calls() + 1, 20);
    }
    reservations.answerOf(reservation);
  }

  /** Waits for node A's first call, which it must make: a seat is free, and nobody else is booking. */
  private void awaitCall(GatedDependency<?, ?> calls, int n, CompletableFuture<String> reservation,
      String whose, String call, long millis, String ifNever) {
    if (!callOrAnswer(calls, n, reservation, millis, ifNever)) {
      throw new AssertionFailedError(whose + " reservation answered " + reservations.answerOf(reservation)
          + " without making its " + call + ", although a seat was free." + reservations.whatCameBefore());
    }
  }

  /**
   * Waits up to {@code millis} until call number {@code n} arrives (true) or {@code reservation} answers without it
   * (false); fails with {@code ifNeither} when neither happens.
   */
  static boolean callOrAnswer(GatedDependency<?, ?> calls, int n, CompletableFuture<String> reservation,
      long millis, String ifNeither) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    // Short rounds, so that a reservation that answers without making its call is seen at once.
    while (!calls.arrivesWithin(n, 20)) {
      if (reservation.isDone()) {
        return calls.calls() >= n;
      }
      require(System.nanoTime() < deadline, ifNeither);
    }
    return true;
  }

  /** Answers a held call with what the test's service had for it when the call arrived. */
  @SuppressWarnings("unchecked")
  static <A, T> void open(Gate<T> gate, Function<A, T> answer) {
    gate.open(answer.apply((A) gate.argument()));
  }

  /** Answers a held ledger read with the count the ledger had when the read arrived. */
  static void open(Gate<Integer> read) {
    open(read, LedgerRead::free);
  }
}
