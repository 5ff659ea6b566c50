package io.looplab.grader.sync;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Gates complete exactly when, and where, the test says; EveryOrder covers every order once. */
class GatedDependencyTest {

  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() {
    vertx.close().await();
  }

  @Test
  @DisplayName("calls wait until released, in the order the test chooses, on the caller's event loop")
  void releasesInChosenOrder() {
    GatedDependency<String, Integer> check = new GatedDependency<>();
    List<String> log = new CopyOnWriteArrayList<>();
    vertx.runOnContext(v -> {
      for (String seat : List.of("A", "B")) {
        Future<Integer> reply = check.apply(seat);
        reply.onSuccess(n -> log.add(seat + "=" + n + "@" + Thread.currentThread().getName().startsWith("vert.x-eventloop")));
      }
    });
    List<Gate<Integer>> gates = check.awaitCalls(2);
    assertEquals(List.of(), log, "nothing completes before the test releases it");
    gates.get(1).open(2);
    gates.get(0).open(1);
    assertEquals(List.of("B=2@true", "A=1@true"), log);
    assertThrows(IllegalStateException.class, () -> gates.get(0).open(3), "a gate answers once");
  }

  @Test
  @DisplayName("a failed gate fails the caller's future with the test's exception")
  void failurePropagates() {
    GatedDependency<String, Integer> check = new GatedDependency<>();
    List<Throwable> errors = new CopyOnWriteArrayList<>();
    vertx.runOnContext(v -> check.apply("A").onFailure(errors::add));
    IllegalStateException boom = new IllegalStateException("down");
    check.call(0).fail(boom);
    assertEquals(List.of(boom), errors);
  }

  @Test
  @DisplayName("arrivesWithin tells a call that came from one that did not, and calledSoFar lists calls without waiting")
  void arrivalsAreReportedWithoutThrowing() {
    GatedDependency<String, Integer> check = new GatedDependency<>();
    assertFalse(check.arrivesWithin(1, 30), "no call was made");
    assertEquals(List.of(), check.calledSoFar());
    vertx.runOnContext(v -> check.apply("A"));
    assertTrue(check.arrivesWithin(1, 5_000));
    assertEquals("A", check.calledSoFar().get(0).argument());
    assertFalse(check.arrivesWithin(2, 30), "only one call was made");
  }

  @Test
  @DisplayName("releaseTogether opens gates in one task: each continuation's first step runs before any queued step")
  void releaseTogetherOverlapsTheContinuations() {
    GatedDependency<String, Integer> check = new GatedDependency<>();
    List<String> log = new CopyOnWriteArrayList<>();
    vertx.runOnContext(v -> {
      for (String who : List.of("A", "B")) {
        check.apply(who).onSuccess(n -> {
          log.add("read " + who);
          vertx.runOnContext(later -> log.add("write " + who));
        });
      }
    });
    List<Gate<Integer>> gates = check.awaitCalls(2);
    Gate.releaseTogether(gates.get(1).opening(2).andThen(() -> log.add("after B")), gates.get(0).opening(1));
    // the writes were queued as tasks of their own, after the task that opened both gates; a copy, because the
    // event loop may be adding them while this compares (a live subList would throw ConcurrentModificationException)
    assertEquals(List.of("read B", "after B", "read A"), List.copyOf(log).subList(0, 3));
    assertFalse(gates.get(0).isPending());
    assertThrows(IllegalStateException.class, () -> Gate.releaseTogether(gates.get(0).opening(3)),
        "a gate answers once");
  }

  @Test
  @DisplayName("releaseTogether passes on what a step of the test throws, and fails gates as asked")
  void releaseTogetherReportsTheTestsFailures() {
    GatedDependency<String, Integer> check = new GatedDependency<>();
    List<Throwable> errors = new CopyOnWriteArrayList<>();
    vertx.runOnContext(v -> check.apply("A").onFailure(errors::add));
    IllegalStateException boom = new IllegalStateException("down");
    Gate<Integer> gate = check.call(0);
    AssertionError fromTheTest = assertThrows(AssertionError.class, () -> Gate.releaseTogether(
        gate.failing(boom).andThen(() -> {
          throw new AssertionError("the test's own check");
        })));
    assertEquals("the test's own check", fromTheTest.getMessage());
    assertEquals(List.of(boom), errors);
  }

  @Test
  @DisplayName("a Signal wakes its waiter as soon as the condition holds, and gives up after the bound otherwise")
  void signalWakesOnChange() {
    Signal signal = new Signal();
    java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
    vertx.runOnContext(v -> {
      done.set(true);
      signal.fire();
    });
    assertTrue(signal.await(done::get, 5_000));
    assertFalse(signal.await(() -> false, 30));
  }

  @Test
  @DisplayName("EveryOrder lists each permutation exactly once")
  void everyOrderIsComplete() {
    List<int[]> orders = EveryOrder.permutations(3);
    Set<String> distinct = orders.stream().map(o -> java.util.Arrays.toString(o)).collect(Collectors.toSet());
    assertEquals(6, orders.size());
    assertEquals(6, distinct.size());
    assertTrue(distinct.contains("[2, 1, 0]"));
    assertEquals(24, new HashSet<>(EveryOrder.permutations(4).stream().map(java.util.Arrays::toString).toList()).size());
  }
}
