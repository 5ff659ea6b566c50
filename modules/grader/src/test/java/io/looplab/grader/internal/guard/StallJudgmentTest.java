package io.looplab.grader.internal.guard;

import io.looplab.grader.fixtures.Computing;
import io.vertx.core.impl.VertxThread;
import io.vertx.core.internal.threadchecker.BlockedThreadEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How the stall detector tells a loop that computes from one a crowded machine keeps off the CPU. A real loop thread
 * computes inside a learner's frame, so that its stack and state are real; its CPU time and the clock are played
 * tick by tick, as the blocked-thread checker would see them every 10 ms, so that each case is the same every run.
 */
@Timeout(30)
class StallJudgmentTest {

  private static final long MS = 1_000_000;
  /** The checker hears of a task first at half the stall limit, then every 10 ms. */
  private static final long FIRST_SIGHTING = GuardSettings.stallMillis() / 2 * MS;
  private static final long TICK = 10 * MS;

  private final AtomicBoolean stop = new AtomicBoolean();
  private VertxThread loop;
  private GuardSession session;

  @BeforeEach
  void openASession() {
    CodeUnderTest.watchPackage("io.looplab.grader.fixtures");
    session = GuardSession.open();
  }

  @AfterEach
  void stopTheLoop() throws InterruptedException {
    session.close();
    stop.set(true);
    ColdLibrary.Gate.INITIALISED.set(true);
    if (loop != null) {
      loop.join(10_000);
    }
  }

  /** A loop thread that runs {@code body}, a learner's code, as one long task. */
  private void startLoop(Runnable body) {
    loop = new VertxThread(body, "vert.x-eventloop-thread-judged", false, 2, TimeUnit.SECONDS);
    loop.setDaemon(true);
    loop.start();
  }

  private void startLoopThatComputes() throws InterruptedException {
    CountDownLatch started = new CountDownLatch(1);
    startLoop(() -> Computing.until(stop, started));
    assertTrue(started.await(10, TimeUnit.SECONDS), "the loop thread did not start");
  }

  @Test
  @DisplayName("a short task that a crowded machine stretches to 300 ms is not a stall, though it runs its 2 ms of "
      + "CPU in one burst")
  void stretchedShortTaskIsNotAStall() throws InterruptedException {
    startLoopThatComputes();
    // What CI saw: a correct start() of about 2 ms of CPU, descheduled for most of 204 ms, ran in one 20 ms stretch.
    Played played = play(30, tick -> tick < 10 ? 0 : tick < 12 ? (tick - 9) * MS : 2 * MS);
    assertEquals(List.of(), played.violations(), "a task that used 2 ms of CPU kept nothing busy");
  }

  @Test
  @DisplayName("a spin that gets a sixth of a core is a stall once it has computed for half the limit")
  void slowSpinIsAStallOnceItComputed() throws InterruptedException {
    startLoopThatComputes();
    long perTick = TICK / 6;
    Played played = play(40, tick -> tick * perTick);
    assertEquals(1, played.violations().size(), "one stall, reported once: " + played.violations());
    Violation stall = played.violations().get(0);
    assertTrue(stall.toString().contains("kept the loop busy for"), stall.toString());
    assertTrue(stall.toString().contains("Computing.java"), "the learner's line: " + stall);
    long cpuWhenReported = played.reportedAtTick() * perTick;
    assertTrue(cpuWhenReported >= FIRST_SIGHTING, "reported after " + cpuWhenReported / MS
        + " ms of CPU since the task was first seen; half the limit is " + FIRST_SIGHTING / MS + " ms");
  }

  @Test
  @DisplayName("a spin on an idle machine is a stall as soon as it has run for the limit")
  void fullSpeedSpinIsAStallAtTheLimit() throws InterruptedException {
    startLoopThatComputes();
    Played played = play(20, tick -> tick * TICK);
    assertEquals(1, played.violations().size(), "one stall, reported once: " + played.violations());
    long wallWhenReported = FIRST_SIGHTING + played.reportedAtTick() * TICK;
    // A collection of this JVM not yet announced may put the judgment off by a check or two.
    assertTrue(wallWhenReported <= GuardSettings.stallMillis() * MS + 3 * TICK,
        "reported at " + wallWhenReported / MS + " ms of a task at full speed");
  }

  @Test
  @DisplayName("a library initialising on a cold JVM is not the learner's stall: CPU time counts from when the loop "
      + "was last seen loading or initialising a class")
  void coldLibraryIsNotAStall() throws InterruptedException {
    CountDownLatch computing = new CountDownLatch(1);
    startLoop(() -> Computing.afterAColdStart(ColdLibrary::use, stop, computing));
    assertTrue(ColdLibrary.Gate.INITIALISING.await(10, TimeUnit.SECONDS), "the library did not start initialising");
    Script script = new Script(loop.getId());
    StallDetector detector = new StallDetector(script);
    int tick = 0;
    for (; tick < 15; tick++) {  // 150 ms of the library's initialiser, at full speed
      check(detector, script, tick, tick * TICK);
    }
    assertEquals(List.of(), session.violations().since(0), "a library's first initialisation is the JVM's work");

    ColdLibrary.Gate.INITIALISED.set(true);
    assertTrue(computing.await(10, TimeUnit.SECONDS), "the learner's code did not go on after the library");
    for (; tick < 17; tick++) {  // 10 and 20 ms of the learner's own computing
      check(detector, script, tick, tick * TICK);
    }
    assertEquals(List.of(), session.violations().since(0), "20 ms of the learner's own CPU time is no stall");
    for (; tick < 30; tick++) {
      check(detector, script, tick, tick * TICK);
    }
    assertEquals(1, session.violations().since(0).size(), "the learner's computing that goes on is a stall: "
        + session.violations().since(0));
    assertTrue(session.violations().since(0).get(0).toString().contains("Computing.java"),
        "named at the learner's line: " + session.violations().since(0));
  }

  @Test
  @DisplayName("a stall is named at the line where its CPU time went, not where the loop is when the judgment falls")
  void stallIsNamedWhereTheTimeWent() throws InterruptedException {
    AtomicBoolean moveOn = new AtomicBoolean();
    CountDownLatch inHeavy = new CountDownLatch(1);
    CountDownLatch inLight = new CountDownLatch(1);
    startLoop(() -> Computing.heavyThenLight(moveOn, inHeavy, inLight, stop));
    assertTrue(inHeavy.await(10, TimeUnit.SECONDS), "the loop did not start its heavy part");
    Script script = new Script(loop.getId());
    StallDetector detector = new StallDetector(script);
    // At 25, 35 and 45 ms into the task the loop is in heavyPart, computing 12 ms between checks; the judgment can
    // fall only from 50 ms, by when the loop has moved on to lightPart, which takes 2 ms more.
    check(detector, script, 0, 0);
    check(detector, script, 1, 12 * MS);
    check(detector, script, 2, 24 * MS);
    assertEquals(List.of(), session.violations().since(0), "no judgment before the limit");
    moveOn.set(true);
    assertTrue(inLight.await(10, TimeUnit.SECONDS), "the loop did not move on to its light part");
    check(detector, script, 3, 26 * MS);
    List<Violation> found = session.violations().since(0);
    assertEquals(1, found.size(), "one stall: " + found);
    assertTrue(found.get(0).toString().contains("heavyPart()"), "24 of the task's 26 ms of CPU went to heavyPart, "
        + "yet: " + found.get(0));
  }

  private void check(StallDetector detector, Script script, int tick, long cpuSinceFirstSighting) {
    script.at(FIRST_SIGHTING + tick * TICK, cpuSinceFirstSighting);
    detector.onBlocked(new BlockedThreadEvent(loop, script.now - script.taskStart, 2_000 * MS, 5_000 * MS));
  }

  /** The loop's CPU time (since the task was first seen) at each check, by the check's number from 0. */
  @FunctionalInterface
  private interface CpuAtTick {
    long nanos(int tick);
  }

  private record Played(List<Violation> violations, int reportedAtTick) {
  }

  /** Plays {@code ticks} checks of one task of the loop, from its first sighting on. */
  private Played play(int ticks, CpuAtTick cpu) {
    Script script = new Script(loop.getId());
    StallDetector detector = new StallDetector(script);
    int reportedAt = -1;
    for (int tick = 0; tick < ticks; tick++) {
      check(detector, script, tick, cpu.nanos(tick));
      if (reportedAt < 0 && !session.violations().since(0).isEmpty()) {
        reportedAt = tick;
      }
    }
    return new Played(session.violations().since(0), reportedAt);
  }

  /** The checker's view of one task: the clock and the loop's CPU time as played; stacks and states are real. */
  private static final class Script implements ThreadReadings {
    private final long loopId;
    private final long taskStart = System.nanoTime();
    private final long cpuAtStart = 1_000 * MS;
    private long now;
    private long cpu;

    Script(long loopId) {
      this.loopId = loopId;
    }

    void at(long sinceStart, long cpuSinceFirstSighting) {
      now = taskStart + sinceStart;
      cpu = cpuAtStart + cpuSinceFirstSighting;
    }

    @Override
    public long taskStart(VertxThread thread) {
      return taskStart;
    }

    @Override
    public long cpuNanos(long threadId) {
      return threadId == loopId ? cpu : ManagementFactory.getThreadMXBean().getThreadCpuTime(threadId);
    }

    @Override
    public ThreadInfo info(long threadId) {
      return ManagementFactory.getThreadMXBean().getThreadInfo(threadId, Integer.MAX_VALUE);
    }

    @Override
    public long nanoTime() {
      return now;
    }
  }
}
