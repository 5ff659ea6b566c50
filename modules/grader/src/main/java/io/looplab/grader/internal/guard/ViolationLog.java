package io.looplab.grader.internal.guard;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Where every detector reports, from whatever thread it runs on. Tests run one at a time, so a single log with a
 * position per test is enough; the current test listens so that it can fail at once instead of at its timeout.
 */
final class ViolationLog {

  private static final List<Violation> violations = new ArrayList<>();
  private static volatile Consumer<Violation> listener = v -> { };

  private ViolationLog() {
  }

  static void report(Violation violation) {
    synchronized (violations) {
      violations.add(violation);
    }
    listener.accept(violation);
  }

  /** A position to read from later with {@link #since(int)}. */
  static int mark() {
    synchronized (violations) {
      return violations.size();
    }
  }

  static List<Violation> since(int mark) {
    synchronized (violations) {
      return new ArrayList<>(violations.subList(Math.min(mark, violations.size()), violations.size()));
    }
  }

  static void listen(Consumer<Violation> newListener) {
    listener = newListener == null ? v -> { } : newListener;
  }
}
