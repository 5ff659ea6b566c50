package io.looplab.cli.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Grading JVMs started ahead of the grading that will use them. Each is used once; one that no grading took is
 * told to stop when the engine closes (and stops by itself if this JVM dies, as its standard input then ends).
 */
final class SpareJvms {

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

  synchronized void put(WaitingJvm spare) {
    spares.add(spare);
  }

  synchronized void close() {
    for (WaitingJvm spare : spares) {
      try {
        spare.jvm().cancel();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    spares.clear();
  }
}
