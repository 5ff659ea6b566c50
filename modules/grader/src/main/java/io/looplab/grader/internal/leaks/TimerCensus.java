package io.looplab.grader.internal.leaks;

import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The timers a Vert.x instance still has scheduled for code other than Vert.x's own: the code under test's, or a
 * test's. Every Vert.x timer is a task in the scheduled-task queue of one of its Netty event loops: {@code setTimer}
 * and {@code setPeriodic}, and also {@code vertx.timer(...)} and {@code Future.timeout(...)}, which Vert.x's own timer
 * map never sees. So the census reads those queues, and {@link TimerSites} says which of their tasks a timer call
 * made, and from which line. Where the grader could not instrument Netty, it falls back to Vert.x's timer map (and
 * says so in the result's words only when that map cannot be read either).
 */
public final class TimerCensus {

  /** How long to wait for an event loop to hand over its queue; a loop busy for longer is read from outside. */
  private static final long LOOP_ANSWER_MS = 1_000;

  private TimerCensus() {
  }

  /**
   * One description per scheduled timer that code outside Vert.x set, with where it was set when known.
   *
   * @param learnersLine the learner's call on a stack, in the guard's words ("fetch() at X.java:88"), if any
   */
  public static List<String> pendingTimers(Vertx vertx, Function<StackTraceElement[], Optional<String>> learnersLine) {
    if (!timerSitesActive()) {
      return mapTimers(vertx);
    }
    List<String> timers = new ArrayList<>();
    try {
      List<EventExecutor> executors = new ArrayList<>();
      ((VertxInternal) vertx).nettyEventLoopGroup().forEach(executors::add);
      // Future.timeout on a future without a context schedules on Netty's global executor, shared by every instance.
      executors.add(GlobalEventExecutor.INSTANCE);
      for (EventExecutor executor : executors) {
        boolean shared = executor == GlobalEventExecutor.INSTANCE;
        for (Object task : scheduledTasks(executor)) {
          if (((java.util.concurrent.Future<?>) task).isDone()) {
            continue;
          }
          TimerSites.siteOf(task).filter(site -> !shared || site.owner() == vertx)
              .ifPresent(site -> timers.add(describe(task, site.stack(), learnersLine)));
        }
      }
    } catch (ReflectiveOperationException | RuntimeException e) {
      timers.add("(the grader could not list the event loops' timers on this Vert.x version: " + e + ")");
    }
    return timers;
  }

  private static boolean timerSitesActive() {
    try {
      return TimerSites.active();
    } catch (LinkageError noByteBuddy) {
      return false;
    }
  }

  /** "a one-shot timer set in x.Y (Future.timeout, called from fetch() at Y.java:88), due in 1.9 s". */
  private static String describe(Object task, StackTraceElement[] stack,
                                 Function<StackTraceElement[], Optional<String>> learnersLine) {
    List<StackTraceElement> frames = Arrays.asList(stack);
    String call = TimerSites.timerCall(frames).map(TimerCensus::callInWords).orElse("a timer call");
    boolean periodic;
    long dueNanos;
    try {
      periodic = ((Long) Internals.field(task, "periodNanos")) != 0;
      dueNanos = ((java.util.concurrent.Delayed) task).getDelay(TimeUnit.NANOSECONDS);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
    String setIn = frames.stream().map(StackTraceElement::getClassName)
        .filter(type -> !type.startsWith("io.vertx.") && !type.startsWith("io.netty.")
            && !type.equals(TimerSites.class.getName()))
        .findFirst().map(TimerCensus::withoutLambda).orElse("unknown code");
    Optional<String> line = learnersLine.apply(stack);
    String when = periodic ? "" : ", due in " + String.format(Locale.ROOT, "%.1f s", Math.max(0, dueNanos) / 1e9);
    return (periodic ? "a periodic timer" : "a one-shot timer") + " set in " + setIn + " (" + call
        + line.map(where -> ", called from " + where).orElse("") + ")" + when;
  }

  private static String callInWords(String method) {
    return switch (method) {
      case "timeout" -> "Future.timeout";
      case "timer" -> "vertx.timer";
      default -> "vertx." + method;
    };
  }

  /** A lambda's class is named after the class that wrote it. */
  private static String withoutLambda(String type) {
    int lambda = type.indexOf("$$Lambda");
    return lambda < 0 ? type : type.substring(0, lambda);
  }

  /**
   * The executor's scheduled tasks, read on its own thread: a timer set from another thread joins the queue only when
   * the loop gets to it (and the loop makes its queue at its first timer), so a read from here could miss it.
   */
  private static List<Object> scheduledTasks(EventExecutor executor) throws ReflectiveOperationException {
    if (!executor.inEventLoop() && !executor.isShuttingDown()) {
      try {
        return executor.submit(() -> queueOf(executor)).get(LOOP_ANSWER_MS, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (Exception busyOrClosed) {
        // a loop stuck in a task, or closing: read the queue from here; a timer added meanwhile may be missed
      }
    }
    return queueOf(executor);
  }

  private static List<Object> queueOf(EventExecutor executor) throws ReflectiveOperationException {
    Object queue = Internals.field(executor, "scheduledTaskQueue");
    return queue == null ? List.of() : new ArrayList<>(Arrays.asList(((java.util.Collection<?>) queue).toArray()));
  }

  /** Vert.x's own timer map: {@code setTimer} and {@code setPeriodic} only, named by their handler's class. */
  private static List<String> mapTimers(Vertx vertx) {
    List<String> timers = new ArrayList<>();
    try {
      for (Object timer : ((Map<?, ?>) Internals.field(vertx, "timeouts")).values()) {
        Object handler = Internals.field(timer, "handler");
        boolean periodic = Boolean.TRUE.equals(Internals.field(timer, "periodic"));
        String owner = handler == null ? "unknown" : handler.getClass().getName();
        if (owner.startsWith("io.vertx.") || owner.startsWith("io.netty.")) {
          continue;
        }
        timers.add((periodic ? "a periodic timer" : "a one-shot timer") + " set in " + withoutLambda(owner));
      }
    } catch (ReflectiveOperationException | RuntimeException e) {
      timers.add("(the grader could not list Vert.x timers on this Vert.x version: " + e + ")");
    }
    return timers;
  }
}
