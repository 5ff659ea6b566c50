package io.looplab.background;

import io.netty.util.concurrent.AbstractScheduledEventExecutor;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.Delayed;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The timers that live on Vert.x's own clock, out of the test clock's reach: the tasks scheduled on Netty's queues,
 * where {@code Future.timeout}, {@code vertx.timer(...)} and {@code vertx.setTimer} put them (the verticle's event
 * loop, or Netty's global executor for a future with no context). Only the tasks scheduled since this was made count,
 * so whatever Vert.x or the test had scheduled before is never taken for the learner's. Compiled with the graded
 * tests, in a file of its own.
 */
final class NettyTimers {

  private static final Field QUEUE = field(AbstractScheduledEventExecutor.class, "scheduledTaskQueue");
  private static final Field TASK = field(forName("io.netty.util.concurrent.PromiseTask"), "task");
  private static final Field ADAPTED = field(forName("io.netty.util.concurrent.PromiseTask$RunnableAdapter"), "task");
  /** Netty's own task on its global executor, there from its start: taken out of the queue each time it runs. */
  private static final Object QUIET_PERIOD = read(field(GlobalEventExecutor.class, "quietPeriodTask"),
      GlobalEventExecutor.INSTANCE);

  private final List<EventExecutor> executors = new ArrayList<>();
  private final Set<Object> before = Collections.newSetFromMap(new IdentityHashMap<>());

  /** Notes what is scheduled now on every event loop of {@code vertx}, and on Netty's global executor. */
  NettyTimers(Vertx vertx) {
    ((VertxInternal) vertx).nettyEventLoopGroup().forEach(executors::add);
    executors.add(GlobalEventExecutor.INSTANCE);
    for (EventExecutor executor : executors) {
      before.addAll(scheduled(executor));
    }
  }

  /** "a task due in 500 ms (Future.timeout)", for each task scheduled on Netty's clocks since this was made. */
  List<String> sinceStart() {
    List<String> found = new ArrayList<>();
    for (EventExecutor executor : executors) {
      for (Object task : scheduled(executor)) {
        if (!before.contains(task) && task != QUIET_PERIOD && !((Future<?>) task).isCancelled()) {
          String origin = origin(task);
          if (!origin.startsWith("io.netty.")) {
            found.add("a task due in " + ((Delayed) task).getDelay(TimeUnit.MILLISECONDS) + " ms ("
                + inWords(origin) + ")");
          }
        }
      }
    }
    return found;
  }

  /** The tasks an executor has scheduled, read on its own thread (its queue is not thread-safe). */
  private static List<Object> scheduled(EventExecutor executor) {
    if (QUEUE == null) {
      return List.of();
    }
    Callable<List<Object>> read = () -> {
      Object queue = QUEUE.get(executor);
      return queue == null ? List.of() : new ArrayList<>((Collection<?>) queue);
    };
    try {
      return executor.inEventLoop() ? read.call() : executor.submit(read).get(5, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("The test could not read the timers scheduled on " + executor, e);
    }
  }

  /** The class the task's code comes from: a lambda's declaring class, or the runnable's own. */
  private static String origin(Object task) {
    Object code = read(TASK, task);
    if (code != null && ADAPTED != null && ADAPTED.getDeclaringClass().isInstance(code)) {
      code = read(ADAPTED, code);
    }
    String name = (code == null ? task : code).getClass().getName();
    int lambda = name.indexOf("$$Lambda");
    return lambda < 0 ? name : name.substring(0, lambda);
  }

  private static String inWords(String origin) {
    if (origin.contains("FutureBase")) {
      return "Future.timeout";
    }
    if (origin.contains("InternalTimerHandler") || origin.contains("TimerImpl") || origin.contains("VertxImpl")
        || origin.contains("ContextInternal") || origin.contains("ContextBase")) {
      return "a Vert.x timer: vertx.setTimer, setPeriodic or timer";
    }
    return "scheduled by " + origin;
  }

  private static Object read(Field field, Object target) {
    try {
      return field == null ? null : field.get(target);
    } catch (IllegalAccessException e) {
      return null;
    }
  }

  private static Class<?> forName(String name) {
    try {
      return Class.forName(name);
    } catch (ClassNotFoundException e) {
      return null;
    }
  }

  private static Field field(Class<?> owner, String name) {
    try {
      Field field = owner.getDeclaredField(name);
      field.setAccessible(true);
      return field;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }
}
