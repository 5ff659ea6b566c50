package io.looplab.grader.internal.leaks;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import net.bytebuddy.agent.ByteBuddyAgent;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;

import static net.bytebuddy.matcher.ElementMatchers.isConstructor;
import static net.bytebuddy.matcher.ElementMatchers.named;

/**
 * Where each timer was set. Every Vert.x timer ({@code setTimer}, {@code setPeriodic}, {@code vertx.timer(...)},
 * {@code Future.timeout(...)}) ends up as one Netty {@code ScheduledFutureTask} in the queue of an event loop, but
 * only the first two are in Vert.x's own timer map, and none remembers who asked for it. So the task's constructors
 * are instrumented once per JVM: a task created under one of those Vert.x calls keeps the stack it was created on,
 * from which {@link TimerCensus} names the learner's line. Tasks Netty or Vert.x make for themselves (a connect
 * timeout, a keep-alive) are not timer calls and keep nothing.
 */
public final class TimerSites {

  private static final String TASK = "io.netty.util.concurrent.ScheduledFutureTask";
  private static final int DEEPEST = 96;

  private static final Map<Object, Site> sites = Collections.synchronizedMap(new WeakHashMap<>());

  /**
   * Where a timer was set: the stack, and the Vert.x instance whose context set it (null off Vert.x's threads). A
   * deadline on a future that has no context ({@code Promise.promise().future().timeout(...)}) is scheduled on
   * Netty's one global executor, which every Vert.x instance shares: the owner tells whose it is.
   */
  record Site(StackTraceElement[] stack, Vertx owner) {
  }
  private static final Object lock = new Object();
  private static volatile Boolean installed;
  private static volatile String failure;

  private TimerSites() {
  }

  /** Instruments Netty's scheduled tasks once per JVM. Returns why it could not, or {@code null} when it is on. */
  public static String ensureInstalled() {
    if (installed == null) {
      synchronized (lock) {
        if (installed == null) {
          try {
            new AgentBuilder.Default()
                .disableClassFormatChanges()
                .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
                .type(named(TASK))
                .transform((builder, type, loader, module, domain) ->
                    builder.visit(Advice.to(RecordSite.class).on(isConstructor())))
                .installOn(ByteBuddyAgent.install());
            installed = true;
          } catch (Throwable e) {
            failure = "the grader could not watch where timers are set (" + e + ")";
            installed = false;
          }
        }
      }
    }
    return Boolean.TRUE.equals(installed) ? null : failure;
  }

  /** Whether sites are being recorded: when not, only Vert.x's own timer map can be read. */
  static boolean active() {
    return Boolean.TRUE.equals(installed);
  }

  /** Called from every new scheduled task (see {@link RecordSite}): keeps the stack when a timer call made it. */
  public static void record(Object task) {
    // Frames first, lines only for a timer call: Netty makes scheduled tasks for itself too, and those pay for the
    // walk alone.
    List<StackWalker.StackFrame> frames = StackWalker.getInstance().walk(walk -> walk.limit(DEEPEST).toList());
    if (timerCall(frames.stream().map(frame -> new StackTraceElement(frame.getClassName(), frame.getMethodName(),
        null, -1)).toList()).isPresent()) {
      Context context = Vertx.currentContext();
      StackTraceElement[] stack = frames.stream().map(StackWalker.StackFrame::toStackTraceElement)
          .toArray(StackTraceElement[]::new);
      sites.put(task, new Site(stack, context == null ? null : context.owner()));
    }
  }

  /** Where a timer call created {@code task}, or empty when no timer call made it. */
  static Optional<Site> siteOf(Object task) {
    return Optional.ofNullable(sites.get(task));
  }

  /**
   * The Vert.x timer call on a stack ("setTimer", "setPeriodic", "timer" or "timeout"), when code outside Vert.x made
   * it: the last Vert.x method before the first frame that is neither Netty's nor Vert.x's. A timer Vert.x sets for
   * itself under some other call (an event-bus request's reply timeout, under {@code request}) is not one.
   */
  static Optional<String> timerCall(List<StackTraceElement> stack) {
    StackTraceElement lastVertx = null;
    for (StackTraceElement frame : stack) {
      String type = frame.getClassName();
      if (type.startsWith("io.vertx.")) {
        lastVertx = frame;
      } else if (!type.startsWith("io.netty.") && !type.equals(TimerSites.class.getName())) {
        break;
      }
    }
    if (lastVertx == null) {
      return Optional.empty();
    }
    String method = lastVertx.getMethodName();
    boolean timerCall = method.equals("setTimer") || method.equals("setPeriodic") || method.equals("timer")
        || method.equals("timeout") && lastVertx.getClassName().startsWith("io.vertx.core.impl.future.");
    return timerCall ? Optional.of(method) : Optional.empty();
  }

  /** Inlined into each constructor of Netty's scheduled task. */
  public static final class RecordSite {

    private RecordSite() {
    }

    @Advice.OnMethodExit
    public static void exit(@Advice.This Object task) {
      TimerSites.record(task);
    }
  }
}
