package io.looplab.grader.sync.callsite;

import io.looplab.grader.sync.GatedDependency;
import io.vertx.core.Future;

/**
 * A test's fake in a file of its own, named like any class: it was loaded with the test, so its frames are the
 * test's, never the learner's, though it is a top-level class of the test's package.
 */
public final class StandaloneFake {

  final GatedDependency<String, Integer> gated = new GatedDependency<>();

  public Future<Integer> call(String key) {
    return gated.apply(key);
  }
}
