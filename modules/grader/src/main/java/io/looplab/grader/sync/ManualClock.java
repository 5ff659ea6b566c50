package io.looplab.grader.sync;

import io.vertx.core.Context;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Timers on a clock the test moves by hand: for code that takes its timers from an interface (a scheduler, a clock)
 * instead of calling {@code vertx.setTimer} itself. Nothing fires until the test calls {@link #advance}; then every
 * timer that falls due fires in the order of its due time, each on the context that set it (as a Vert.x timer does),
 * and the test goes on only once that context has nothing left to run. A periodic timer fires once per period passed;
 * a timer set while the clock moves fires in the same move when it falls due within it. Every timer is kept, with where
 * the code under test set it ({@link CallSite}) and whether it was cancelled: the evidence for "this timer was never
 * cancelled" and "this fired after undeploy". No sleeps: a whole hour passes in microseconds.
 */
public final class ManualClock {

  private static final long WAIT_SECONDS = 10;
  private static final Duration WAIT = Duration.ofSeconds(WAIT_SECONDS);

  private final List<Timer> timers = new ArrayList<>();
  private long now;
  private long nextId = 1;

  /** One timer the code set: what it is, where it was set, and what became of it. */
  public static final class Timer {
    private final long id;
    private final boolean periodic;
    private final long delayMillis;
    private final long setAt;
    private final Context context;
    private final Handler<Long> handler;
    private final String callSite;
    private long dueAt;
    private long cancelledAt = -1;
    private int fired;

    private Timer(long id, boolean periodic, long delayMillis, long setAt, Handler<Long> handler) {
      this.id = id;
      this.periodic = periodic;
      this.delayMillis = delayMillis;
      this.setAt = setAt;
      this.dueAt = setAt + delayMillis;
      this.context = Vertx.currentContext();
      this.handler = handler;
      this.callSite = CallSite.ofCurrentCall().orElse(null);
    }

    public long id() {
      return id;
    }

    public boolean periodic() {
      return periodic;
    }

    public long delayMillis() {
      return delayMillis;
    }

    /** The clock's time when the timer was set. */
    public long setAt() {
      return setAt;
    }

    /** How many times it has fired. */
    public synchronized int fired() {
      return fired;
    }

    /** Still scheduled: not cancelled, and (one-shot) not fired yet. */
    public synchronized boolean isPending() {
      return cancelledAt < 0 && (periodic || fired == 0);
    }

    /** The context the timer fires on: the one that set it (null when it was set from a plain thread). */
    public Context context() {
      return context;
    }

    /** Where the code under test set it, as {@code "start() at Job.java:31"}; empty when no frame of it was on the stack. */
    public Optional<String> callSite() {
      return Optional.ofNullable(callSite);
    }

    /** "a periodic timer every 1000 ms, set at t=0 ms by start() at Job.java:31". */
    @Override
    public String toString() {
      return (periodic ? "a periodic timer every " + delayMillis + " ms" : "a one-shot timer of " + delayMillis + " ms")
          + ", set at t=" + setAt + " ms" + (callSite == null ? "" : " by " + callSite);
    }
  }

  /** The clock's time, in milliseconds since it was created. */
  public synchronized long now() {
    return now;
  }

  /** As {@code vertx.setTimer}: fires once, {@code delayMillis} after now, on the caller's context. */
  public synchronized long setTimer(long delayMillis, Handler<Long> handler) {
    return add(false, delayMillis, handler);
  }

  /** As {@code vertx.setPeriodic}: fires every {@code delayMillis}, the first time {@code delayMillis} after now. */
  public synchronized long setPeriodic(long delayMillis, Handler<Long> handler) {
    return add(true, delayMillis, handler);
  }

  private long add(boolean periodic, long delayMillis, Handler<Long> handler) {
    if (delayMillis < 1) {
      throw new IllegalArgumentException("Cannot schedule a timer with delay < 1 ms: " + delayMillis);
    }
    Timer timer = new Timer(nextId++, periodic, delayMillis, now, handler);
    timers.add(timer);
    return timer.id;
  }

  /** As {@code vertx.cancelTimer}: true when the timer was still scheduled. */
  public synchronized boolean cancelTimer(long id) {
    for (Timer timer : timers) {
      if (timer.id == id) {
        synchronized (timer) {
          if (!timer.isPending()) {
            return false;
          }
          timer.cancelledAt = now;
          return true;
        }
      }
    }
    return false;
  }

  /** Every timer set so far, in the order they were set. */
  public synchronized List<Timer> all() {
    return List.copyOf(timers);
  }

  /** The timers still scheduled. */
  public synchronized List<Timer> pending() {
    return timers.stream().filter(Timer::isPending).toList();
  }

  /**
   * Moves the clock forward by {@code by}, firing every timer that falls due on the way, in order, each on its own
   * context; after each one, that context runs until it has nothing left to do ({@link #runUntilIdle}). Call it from
   * the test's own thread, never from an event loop.
   */
  public void advance(Duration by) {
    long target;
    synchronized (this) {
      target = now + by.toMillis();
    }
    while (true) {
      Timer next;
      synchronized (this) {
        next = timers.stream().filter(t -> t.isPending() && t.dueAt <= target)
            .min(Comparator.comparingLong((Timer t) -> t.dueAt).thenComparingLong(t -> t.id)).orElse(null);
        if (next == null) {
          now = target;
          return;
        }
        now = next.dueAt;
        synchronized (next) {
          next.fired++;
          next.dueAt += next.delayMillis;
        }
      }
      fire(next);
    }
  }

  private void fire(Timer timer) {
    if (timer.context == null) {
      timer.handler.handle(timer.id);
      return;
    }
    try {
      // what the handler throws is not caught: it reaches Vert.x (and the guard) as from a real timer
      RunOnContext.run(timer.context, () -> {
        // cancelled by an earlier timer of this same move, between its due time and this task: skip it, as Vert.x does
        if (timer.periodic ? timer.isPending() : timer.cancelledAt < 0) {
          timer.handler.handle(timer.id);
        }
      }, WAIT);
    } catch (Exception e) {
      throw new IllegalStateException("The event loop did not run a timer's handler within " + WAIT_SECONDS
          + " s: is it blocked?", e);
    }
    runUntilIdle(timer.context);
  }

  /**
   * Lets {@code context}'s event loop run until it has nothing left to do: every task queued so far, and every task
   * those queue, has run. No clock involved: it is {@link ContextSettle#settle}, which fails here when the loop is
   * still busy after 10 s. Call it from the test's own thread.
   */
  public static void runUntilIdle(Context context) {
    if (!ContextSettle.settle(context, WAIT)) {
      throw new IllegalStateException("The event loop did not run the test's probe within " + WAIT_SECONDS
          + " s: is it blocked?");
    }
  }
}
