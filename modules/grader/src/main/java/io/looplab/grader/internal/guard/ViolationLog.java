package io.looplab.grader.internal.guard;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Where a test class's detectors report, from whatever thread they run on; one per {@link GuardSession}. Tests of a
 * class run one at a time, so a single log with a position per test is enough; the current test listens so that it
 * can fail at once instead of at its timeout.
 */
final class ViolationLog {

  private final List<Violation> violations = new ArrayList<>();
  private volatile Consumer<Violation> listener = v -> { };

  void report(Violation violation) {
    synchronized (violations) {
      violations.add(violation);
    }
    listener.accept(violation);
  }

  /** A position to read from later with {@link #since(int)}. */
  int mark() {
    synchronized (violations) {
      return violations.size();
    }
  }

  List<Violation> since(int mark) {
    synchronized (violations) {
      return new ArrayList<>(violations.subList(Math.min(mark, violations.size()), violations.size()));
    }
  }

  void listen(Consumer<Violation> newListener) {
    listener = newListener == null ? v -> { } : newListener;
  }
}
