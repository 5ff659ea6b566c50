package io.looplab.grader.sync;

import io.looplab.grader.internal.guard.CodeUnderTest;
import io.looplab.grader.internal.leaks.Internals;
import io.vertx.core.Context;
import io.vertx.core.ThreadingModel;
import io.vertx.core.internal.ContextInternal;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.SingleThreadEventExecutor;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Lets a context run until it has nothing left to do, with no clock: every task that the test's last step queued,
 * and every task those queued, has run. A task suspended in {@code Future.await()} counts as done until what it
 * awaits completes: on a virtual-thread context, that is exactly what frees the context for the next task.
 *
 * <p>On a virtual-thread (or worker) context, tasks run one at a time through Vert.x's ordered task queue, and a task
 * holds the context until it ends or awaits. A task that waits any other way (a JDK lock, a {@code synchronized}
 * block, {@code Thread.sleep}) keeps the context: nothing else of that context runs meanwhile, and when what it waits
 * for needs another task of the same context, the context is deadlocked for good. {@link #settle} then returns
 * false, and {@link #holder} / {@link #waitInWords} say which thread holds the context and where it waits.
 *
 * <p>Vert.x keeps that queue private; it is read by reflection, and a future Vert.x that renames it makes
 * {@link #settle} fail saying so, rather than pass.
 */
public final class ContextSettle {

  /** Between two looks at a virtual-thread context's queue: a poll of a condition, not a wait for time to pass. */
  private static final long POLL_NANOS = 100_000;

  private ContextSettle() {
  }

  /**
   * Waits until {@code context} has no task running and none queued. Returns true at once when that happens, false
   * when some task still held the context after {@code within}: only code that waits while it keeps the context
   * ever makes a test wait this out. Call it from the test's thread, never from the context itself.
   */
  public static boolean settle(Context context, Duration within) {
    if (context.threadingModel() == ThreadingModel.EVENT_LOOP) {
      return settleEventLoop(context, within);
    }
    long deadline = System.nanoTime() + within.toNanos();
    while (!isIdle(context)) {
      if (System.nanoTime() - deadline > 0) {
        return false;
      }
      LockSupport.parkNanos(POLL_NANOS);
    }
    return true;
  }

  /**
   * Like {@link #settle}, but a context that is still busy after {@code within} is given up to {@code atMost} in all
   * for as long as the task holding it is runnable: computing, or waiting for a core on a crowded machine, which is
   * progress, not a wait. Returns false only when the context is held by a task that waits itself (parked, blocked on
   * a monitor, sleeping), or still held after {@code atMost}.
   */
  public static boolean settleUnlessHeld(Context context, Duration within, Duration atMost) {
    long deadline = System.nanoTime() + atMost.toNanos();
    while (!settle(context, within)) {
      if (System.nanoTime() - deadline > 0 || waitsItself(context)) {
        return false;
      }
    }
    return true;
  }

  /** The same thread holds the context on two looks 20 ms apart, and waits itself (not runnable) on both. */
  private static boolean waitsItself(Context context) {
    Optional<Thread> first = holder(context);
    if (first.isEmpty() || first.get().getState() == Thread.State.RUNNABLE) {
      return false;
    }
    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
    Optional<Thread> second = holder(context);
    return second.isPresent() && second.get() == first.get() && second.get().getState() != Thread.State.RUNNABLE;
  }

  /**
   * The thread running a task of {@code context} right now: for a virtual-thread or worker context, the one task that
   * holds it; empty when the context is idle, or for an event-loop context.
   */
  public static Optional<Thread> holder(Context context) {
    if (context.threadingModel() == ThreadingModel.EVENT_LOOP) {
      return Optional.empty();
    }
    try {
      return Optional.ofNullable((Thread) Internals.field(taskQueue(context), "currentThread"));
    } catch (ReflectiveOperationException e) {
      throw unreadable(e);
    }
  }

  /**
   * Where {@code thread} waits, in a learner's words: {@code "in ReentrantLock.lock, called from reserve() at
   * SeatCounter.java:47"}, or {@code "entering a synchronized block, at reserve() at SeatCounter.java:47"}.
   */
  public static String waitInWords(Thread thread) {
    StackTraceElement[] stack = thread.getStackTrace();
    Optional<String> learner = CallSite.of(stack);
    int index = -1;
    for (int i = 0; i < stack.length && index < 0; i++) {
      if (CodeUnderTest.firstFrame(new StackTraceElement[] {stack[i]}).isPresent()) {
        index = i;
      }
    }
    String where = learner.map(site -> " " + site).orElse("");
    if (thread.getState() == Thread.State.BLOCKED) {
      return "entering a synchronized block or method, in" + where;
    }
    if (index > 0) {
      StackTraceElement callee = stack[index - 1];
      String type = callee.getClassName().substring(callee.getClassName().lastIndexOf('.') + 1).replace('$', '.');
      return "in " + type + "." + callee.getMethodName() + ", called from" + where;
    }
    if (index == 0) {
      return "in" + where;
    }
    // No frame of the code under test: name the first frame above the JDK's parking machinery.
    for (StackTraceElement frame : stack) {
      String c = frame.getClassName();
      if (!c.startsWith("java.lang.VirtualThread") && !c.startsWith("java.lang.System") && !c.startsWith("jdk.internal.") && !c.equals("java.lang.Thread")
          && !c.equals("java.util.concurrent.locks.LockSupport") && !c.startsWith("java.util.concurrent.locks.Abstract")) {
        return "in " + c.substring(c.lastIndexOf('.') + 1).replace('$', '.') + "." + frame.getMethodName();
      }
    }
    return "somewhere its stack does not show";
  }

  private static boolean isIdle(Context context) {
    try {
      Object queue = taskQueue(context);
      java.lang.reflect.Method isEmpty = findMethod(queue.getClass(), "isEmpty");
      return (Boolean) isEmpty.invoke(queue);
    } catch (ReflectiveOperationException e) {
      throw unreadable(e);
    }
  }

  private static Object taskQueue(Context context) throws ReflectiveOperationException {
    Object executor = ((ContextInternal) context).executor();
    java.lang.reflect.Method taskQueue = findMethod(executor.getClass(), "taskQueue");
    return taskQueue.invoke(executor);
  }

  private static java.lang.reflect.Method findMethod(Class<?> type, String name) throws NoSuchMethodException {
    for (Class<?> c = type; c != null; c = c.getSuperclass()) {
      try {
        java.lang.reflect.Method m = c.getDeclaredMethod(name);
        m.setAccessible(true);
        return m;
      } catch (NoSuchMethodException ignored) {
        // look in the superclass
      }
    }
    throw new NoSuchMethodException(type.getName() + "." + name);
  }

  private static IllegalStateException unreadable(ReflectiveOperationException e) {
    return new IllegalStateException("the grader could not read a context's task queue on this Vert.x version: " + e,
        e);
  }

  /** A probe task on the loop looks at the loop's queue, until it finds it empty. */
  private static boolean settleEventLoop(Context context, Duration within) {
    EventExecutor loop = ((ContextInternal) context).nettyEventLoop();
    long deadline = System.nanoTime() + within.toNanos();
    for (int round = 0; round < 1_000; round++) {
      try {
        Duration left = Duration.ofNanos(Math.max(1, deadline - System.nanoTime()));
        int queued = RunOnContext.call(context, () -> loop instanceof SingleThreadEventExecutor single
            ? single.pendingTasks() : 0, left);
        if (queued == 0 && (loop instanceof SingleThreadEventExecutor || round >= 20)) {
          return true;
        }
      } catch (java.util.concurrent.TimeoutException e) {
        return false;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      } catch (java.util.concurrent.ExecutionException e) {
        throw new IllegalStateException(e.getCause());
      }
    }
    return true;
  }
}
