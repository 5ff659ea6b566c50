package io.looplab.grader.internal.guard.whereabouts;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.internal.guard.CountAsLearners;
import io.looplab.grader.internal.guard.Whereabouts;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a timeout says of the test's thread (GradingMain asks Whereabouts when the kit's time limit strikes): the
 * learner's line that never returned, or the wait that never ended, and the test's line that led there.
 */
@GradedVertxTest
@CountAsLearners(StuckLearner.class)
class WhereaboutsTest {

  @Test
  @DisplayName("a thread looping in the learner's code: still running, at the learner's line, called from the test's")
  void loopingInTheLearnersCode() throws Exception {
    StuckLearner learner = new StuckLearner();
    Thread thread = new Thread(() -> learner.spin());
    thread.start();
    try {
      learner.entered.await(5, TimeUnit.SECONDS);
      String where = awaitWords(thread, w -> w.contains("StuckLearner.java:17"));
      assertTrue(where.startsWith("still running your code, spin() at StuckLearner.java:17 (the test called it at "
          + "WhereaboutsTest.java:"), where);
      assertTrue(where.endsWith("a loop that never ends?"), where);
    } finally {
      learner.stop.set(true);
      thread.join();
    }
  }

  @Test
  @DisplayName("a thread waiting in the learner's code: the wait, at the learner's line")
  void waitingInTheLearnersCode() throws Exception {
    StuckLearner learner = new StuckLearner();
    Thread thread = new Thread(() -> {
      try {
        learner.waitForever();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    thread.start();
    try {
      learner.entered.await(5, TimeUnit.SECONDS);
      String where = awaitWords(thread, w -> w.startsWith("waiting"));
      assertTrue(where.startsWith("waiting in CountDownLatch.await, called from waitForever() at StuckLearner.java:24 "
          + "(the test called it at WhereaboutsTest.java:"), where);
      assertTrue(where.endsWith("a wait for something that never happens?"), where);
    } finally {
      learner.release.countDown();
      thread.join();
    }
  }

  @Test
  @DisplayName("a test waiting for a future nobody completes: the wait, at the test's line")
  void testWaitingForAFuture() throws Exception {
    CompletableFuture<String> never = new CompletableFuture<>();
    Thread thread = new Thread(() -> never.completeOnTimeout("late", 10, TimeUnit.SECONDS).join());
    thread.start();
    try {
      String where = awaitWords(thread, w -> w.startsWith("waiting"));
      assertTrue(where.startsWith("waiting in CompletableFuture.join, called from a lambda in testWaitingForAFuture() at "
          + "WhereaboutsTest.java:"), where);
      assertTrue(where.endsWith("never came"), where);
    } finally {
      never.complete("done");
      thread.join();
    }
  }

  @Test
  @DisplayName("a thread that has ended is nowhere")
  void endedThreadIsNowhere() throws Exception {
    Thread thread = new Thread(() -> { });
    thread.start();
    thread.join();
    assertEquals(Optional.empty(), Whereabouts.of(thread));
  }

  /** The first description that {@code ready} accepts: the thread may take a moment to get where it is going. */
  private static String awaitWords(Thread thread, Predicate<String> ready) throws InterruptedException {
    String last = null;
    for (long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5); System.nanoTime() < end; Thread.sleep(10)) {
      last = Whereabouts.of(thread).orElse(null);
      if (last != null && ready.test(last)) {
        return last;
      }
    }
    throw new AssertionError("the thread was never described as expected; last said: " + last);
  }
}
