package io.looplab.eventloop;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Watches the learner's own state (the fields of the verticle, and of the learner's objects they hold) while the
 * directory's client thread runs the learner's code: the callbacks chained on a stage run inside its completion, on
 * that thread. Only the verticle's event loop may write that state.
 *
 * <p>The proof is a before/after look at the fields around one completion, made while the verticle's event loop is
 * held busy by a short task of the test's (a spin, no blocking call, at most {@link #HOLD_AT_MOST_NANOS}): nothing on
 * the loop can write a field in between, so a field that changed was written by the client thread. When the loop
 * could not be held for the whole completion, that completion proves nothing and is not counted.
 *
 * <p>Thread-safe objects (Vert.x futures and promises, CompletionStages, java.util.concurrent classes) are compared by
 * identity only: their own insides may change on any thread, as a future completed by the client does.
 */
final class FieldWatch {

  /** Longer than any completion takes on an idle core, and well below the guard's 50 ms for a stalled loop. */
  private static final long HOLD_AT_MOST_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
  /** How long the client thread waits for the loop to start holding: the loop may be finishing a request. */
  private static final long START_AT_MOST_NANOS = TimeUnit.SECONDS.toNanos(1);

  private static final int WAITING = 0;
  private static final int HELD = 1;
  private static final int DONE = 2;
  private static final int GAVE_UP = 3;

  private final Object verticle;
  private final Context context;
  private final String clientThread;
  private final List<String> writes = new CopyOnWriteArrayList<>();
  /** Counted only so that the hold's loop has a body the JIT keeps. */
  private volatile long spins;

  FieldWatch(Object verticle, Context context, String clientThread) {
    this.verticle = verticle;
    this.context = context;
    this.clientThread = clientThread;
  }

  /** Runs {@code completion} on the calling (client) thread, noting any field of the learner's it changes. */
  void around(String lookup, Runnable completion) {
    AtomicInteger state = new AtomicInteger(WAITING);
    context.runOnContext(v -> {
      if (!state.compareAndSet(WAITING, HELD)) {
        return;
      }
      long end = System.nanoTime() + HOLD_AT_MOST_NANOS;
      // A plain spin, not Thread.onSpinWait(): the guard counts that as a blocking call, and outside the learner's
      // code it prints a line for each one (thousands per hold, the grading's CPU spent on its own log).
      while (state.get() == HELD && System.nanoTime() - end < 0) {
        spins++;
      }
      state.compareAndSet(HELD, GAVE_UP);
    });
    long start = System.nanoTime();
    while (state.get() == WAITING && System.nanoTime() - start < START_AT_MOST_NANOS) {
      LockSupport.parkNanos(20_000);
    }
    if (!state.compareAndSet(HELD, HELD)) {
      state.compareAndSet(WAITING, GAVE_UP);
      completion.run();
      return;
    }
    Map<String, String> before = snapshot();
    completion.run();
    Map<String, String> after = snapshot();
    if (!state.compareAndSet(HELD, DONE)) {
      return; // the loop stopped holding before the look after: inconclusive
    }
    before.forEach((field, was) -> {
      String now = after.get(field);
      if (!was.equals(now)) {
        writes.add(field + " changed from " + was + " to " + now + " on the directory's client thread "
            + clientThread + ", while that thread delivered " + lookup);
      }
    });
  }

  /** What was written on the client thread, one line each; empty when nothing was. */
  List<String> writes() {
    return List.copyOf(writes);
  }

  private Map<String, String> snapshot() {
    Map<String, String> values = new LinkedHashMap<>();
    Class<?> type = verticle.getClass();
    for (Field field : type.getDeclaredFields()) {
      if (field.isSynthetic() || isGiven(field.getType())) {
        continue;
      }
      boolean isStatic = Modifier.isStatic(field.getModifiers());
      if (isStatic && Modifier.isFinal(field.getModifiers())
          && (field.getType().isPrimitive() || field.getType() == String.class)) {
        continue;
      }
      String name = "the " + (isStatic ? "static " : "") + "field " + field.getName() + " of "
          + type.getSimpleName();
      values.put(name, read(field, isStatic ? null : verticle, 0));
    }
    return values;
  }

  private String read(Field field, Object owner, int depth) {
    try {
      field.setAccessible(true);
      return render(field.get(owner), depth);
    } catch (ReflectiveOperationException | RuntimeException unreadable) {
      return "(unreadable)";
    }
  }

  private String render(Object value, int depth) {
    if (value == null) {
      return "null";
    }
    Class<?> type = value.getClass();
    if (value instanceof Future || value instanceof Promise || value instanceof CompletionStage
        || type.getName().startsWith("java.util.concurrent.") || value instanceof Thread
        || value instanceof Context || isGiven(type)) {
      return identity(value);
    }
    if (value instanceof Map<?, ?> map && depth < 3) {
      List<String> entries = new ArrayList<>();
      new ArrayList<>(map.entrySet()).forEach(entry -> entries.add(render(entry.getKey(), depth + 1) + "="
          + render(entry.getValue(), depth + 1)));
      return "{" + String.join(", ", entries) + "}";
    }
    if (value instanceof Collection<?> items && depth < 3) {
      List<String> rendered = new ArrayList<>();
      new ArrayList<>(items).forEach(item -> rendered.add(render(item, depth + 1)));
      return rendered.toString();
    }
    if (type.isArray()) {
      List<String> items = new ArrayList<>();
      for (int i = 0; i < Array.getLength(value); i++) {
        items.add(render(Array.get(value, i), depth + 1));
      }
      return items.toString();
    }
    if (isLearners(type) && depth < 2) {
      List<String> parts = new ArrayList<>();
      for (Field field : type.getDeclaredFields()) {
        if (!field.isSynthetic() && !Modifier.isStatic(field.getModifiers())) {
          parts.add(field.getName() + "=" + read(field, value, depth + 1));
        }
      }
      return type.getSimpleName() + parts;
    }
    if (isLearners(type)) {
      return identity(value);
    }
    try {
      return String.valueOf(value);
    } catch (RuntimeException whileChanging) {
      return identity(value) + " (changing)";
    }
  }

  private static String identity(Object value) {
    return value.getClass().getSimpleName() + "@" + Integer.toHexString(System.identityHashCode(value));
  }

  private static boolean isGiven(Class<?> type) {
    return type == VisitLog.class || UserDirectory.class.isAssignableFrom(type);
  }

  /** A class of the learner's package, compiled with the learner's code (not the test's fixtures). */
  private static boolean isLearners(Class<?> type) {
    return type.getPackageName().equals(FieldWatch.class.getPackageName()) && !isGiven(type)
        && !Objects.equals(locationOf(type), locationOf(FieldWatch.class));
  }

  private static Object locationOf(Class<?> type) {
    var source = type.getProtectionDomain().getCodeSource();
    return source == null ? null : source.getLocation();
  }
}
