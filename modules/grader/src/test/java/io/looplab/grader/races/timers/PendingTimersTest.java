package io.looplab.grader.races.timers;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.internal.guard.CountAsLearners;
import io.looplab.grader.races.PendingTimers;
import io.looplab.grader.testkit.OnContext;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Timer;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The census sees every kind of Vert.x timer, including the two Vert.x's own timer map never holds
 * ({@code Future.timeout} and {@code vertx.timer}), names the learner's line that set it, and forgets it once it is
 * cancelled or its work is done. {@link TimerSetter} plays the learner's code.
 */
@GradedVertxTest
@CountAsLearners(TimerSetter.class)
class PendingTimersTest {

  private static final Duration WITHIN = Duration.ofSeconds(5);

  @Test
  @DisplayName("a Future.timeout deadline is listed with the learner's line while its future waits, and not once it has answered")
  void futureTimeoutIsSeenUntilItsFutureAnswers(Vertx vertx) throws Exception {
    Context context = vertx.getOrCreateContext();
    // a promise of the context schedules its deadline on the context's event loop; one without a context
    // (Promise.promise()) on Netty's global executor, which the census reads too
    Promise<String> ofTheContext = OnContext.call(context, () -> ((ContextInternal) context).<String>promise(), WITHIN);
    Promise<String> withoutContext = OnContext.call(context, Promise::promise, WITHIN);
    Future<String> first = OnContext.call(context, () -> TimerSetter.deadlineOn(ofTheContext), WITHIN);
    Future<String> second = OnContext.call(context, () -> TimerSetter.deadlineOn(withoutContext), WITHIN);
    List<String> pending = PendingTimers.of(vertx);
    assertEquals(2, pending.size(), pending::toString);
    for (String timer : pending) {
      assertTrue(timer.startsWith("a one-shot timer set in " + TimerSetter.class.getName() + " (Future.timeout, "
          + "called from deadlineOn() at TimerSetter.java:"), timer);
      assertTrue(timer.matches(".*, due in (59|60)\\.\\d s"), timer);
    }
    OnContext.run(context, () -> ofTheContext.complete("in time"), WITHIN);
    assertEquals("in time", first.toCompletionStage().toCompletableFuture().get());
    assertEquals(1, PendingTimers.of(vertx).size(), () -> PendingTimers.of(vertx).toString());
    OnContext.run(context, () -> withoutContext.complete("in time too"), WITHIN);
    assertEquals("in time too", second.toCompletionStage().toCompletableFuture().get());
    assertEquals(List.of(), PendingTimers.of(vertx));
  }

  @Test
  @DisplayName("a deadline another Vert.x instance left on the shared global executor is not this instance's")
  void anotherInstancesDeadlineIsNotListed(Vertx vertx) throws Exception {
    Vertx other = Vertx.vertx();
    try {
      Context elsewhere = other.getOrCreateContext();
      Promise<String> never = OnContext.call(elsewhere, Promise::promise, WITHIN);
      OnContext.call(elsewhere, () -> TimerSetter.deadlineOn(never), WITHIN);
      assertEquals(1, PendingTimers.of(other).size(), () -> PendingTimers.of(other).toString());
      assertEquals(List.of(), PendingTimers.of(vertx));
      OnContext.run(elsewhere, () -> never.complete("done"), WITHIN);
    } finally {
      other.close().toCompletionStage().toCompletableFuture().get();
    }
  }

  @Test
  @DisplayName("vertx.timer, setTimer and setPeriodic are listed with their kind and line, and not once cancelled")
  void everyKindIsListedUntilCancelled(Vertx vertx) throws Exception {
    Context context = vertx.getOrCreateContext();
    Timer timer = OnContext.call(context, () -> TimerSetter.timer(vertx), WITHIN);
    long oneShot = OnContext.call(context, () -> TimerSetter.oneShot(vertx), WITHIN);
    long periodic = OnContext.call(context, () -> TimerSetter.periodic(vertx), WITHIN);
    List<String> pending = PendingTimers.of(vertx);
    assertEquals(3, pending.size(), pending::toString);
    assertTrue(pending.stream().anyMatch(t -> t.startsWith("a one-shot timer") && t.contains("(vertx.timer, called from "
        + "timer() at TimerSetter.java:")), pending::toString);
    assertTrue(pending.stream().anyMatch(t -> t.startsWith("a one-shot timer") && t.contains("(vertx.setTimer, called "
        + "from oneShot() at TimerSetter.java:")), pending::toString);
    assertTrue(pending.stream().anyMatch(t -> t.startsWith("a periodic timer") && t.contains("(vertx.setPeriodic, "
        + "called from periodic() at TimerSetter.java:") && !t.contains("due in")), pending::toString);
    timer.cancel();
    vertx.cancelTimer(oneShot);
    vertx.cancelTimer(periodic);
    assertEquals(List.of(), PendingTimers.of(vertx));
  }

  @Test
  @DisplayName("a timer Vert.x sets for itself (an event-bus request's reply timeout) is not the code's")
  void vertxOwnTimersAreNotListed(Vertx vertx) throws Exception {
    Context context = vertx.getOrCreateContext();
    vertx.eventBus().consumer("never.replies", message -> { }).completion().toCompletionStage().toCompletableFuture()
        .get();
    Future<Object> reply = OnContext.call(context, () -> TimerSetter.requestNobodyAnswers(vertx, "never.replies"),
        WITHIN);
    assertTrue(!reply.isComplete(), "the request must still wait for its reply, so its timer is still scheduled");
    assertEquals(List.of(), PendingTimers.of(vertx));
  }

  @Test
  @DisplayName("a timer the test itself sets is listed by its class, with no learner's line")
  void aTestsOwnTimerIsListedByItsClass(Vertx vertx) {
    long id = vertx.setTimer(60_000, fired -> { });
    List<String> pending = PendingTimers.of(vertx);
    assertEquals(List.of("a one-shot timer set in " + PendingTimersTest.class.getName() + " (vertx.setTimer)"),
        pending.stream().map(t -> t.replaceAll(", due in .*", "")).toList());
    vertx.cancelTimer(id);
  }
}
