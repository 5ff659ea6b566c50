package io.looplab.cli.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Grading JVMs started ahead of the grading that will use them. Each is used once; one that no grading took is
 * told to stop when the engine closes (and stops by itself if this JVM dies, as its standard input then ends).
 * At most {@value #MOST} wait at a time (the exercise checked last, and the next one after full marks): each holds
 * some 200 MB, and a learner who has checked every exercise must not keep fourteen.
 */
final class SpareJvms {

  static final int MOST = 2;

  private final List<WaitingJvm> spares = new ArrayList<>();

  synchronized Optional<WaitingJvm> take(Exercise exercise, Target target, List<String> options) {
    for (WaitingJvm spare : spares) {
      if (spare.fits(exercise, target, options)) {
        spares.remove(spare);
        if (spare.jvm().isAlive()) {
          return Optional.of(spare);
        }
        return Optional.empty();
      }
    }
    return Optional.empty();
  }

  synchronized boolean has(Exercise exercise, Target target, List<String> options) {
    return spares.stream().anyMatch(s -> s.fits(exercise, target, options) && s.jvm().isAlive());
  }

  /** Keeps {@code spare}; the oldest one waiting is stopped when there would be more than {@value #MOST}. */
  void put(WaitingJvm spare) {
    List<WaitingJvm> stale = new ArrayList<>();
    synchronized (this) {
      spares.add(spare);
      while (spares.size() > MOST) {
        stale.add(spares.remove(0));
      }
    }
    stop(stale);
  }

  void close() {
    List<WaitingJvm> all;
    synchronized (this) {
      all = new ArrayList<>(spares);
      spares.clear();
    }
    stop(all);
  }

  private static void stop(List<WaitingJvm> jvms) {
    for (WaitingJvm spare : jvms) {
      try {
        spare.jvm().cancel();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
