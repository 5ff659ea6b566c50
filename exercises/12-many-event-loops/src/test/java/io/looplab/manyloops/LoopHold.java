package io.looplab.manyloops;

import io.vertx.core.Context;
import org.opentest4j.AssertionFailedError;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.looplab.manyloops.Limits.RACE_WAIT_SECONDS;
import static io.looplab.manyloops.Limits.WAIT_SECONDS;

/**
 * The test's own hold on the instances' event loops: a task on each that waits until the test releases it. The
 * guard leaves this wait alone, as it grades only the code under test (it notes it on the console as "not
 * graded"), and the wait is bounded, so a test that fails midway never wedges a loop.
 */
final class LoopHold {

  private final CountDownLatch held;
  private final CountDownLatch go = new CountDownLatch(1);

  LoopHold(List<Context> contexts) {
    held = new CountDownLatch(contexts.size());
    for (Context context : contexts) {
      context.runOnContext(v -> hold());
    }
  }

  private void hold() {
    held.countDown();
    try {
      go.await(RACE_WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  void awaitHeld() {
    try {
      if (held.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
        return;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    throw new AssertionFailedError("The instances' event loops did not run a task of the test's within "
        + WAIT_SECONDS + " s: is something keeping a loop busy?");
  }

  void release() {
    go.countDown();
  }
}
