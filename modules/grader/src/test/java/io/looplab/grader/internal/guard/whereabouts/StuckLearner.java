package io.looplab.grader.internal.guard.whereabouts;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

/** Stands for a learner's class that never returns: {@code WhereaboutsTest} declares it the learner's. */
public class StuckLearner {

  final CountDownLatch entered = new CountDownLatch(1);
  final AtomicBoolean stop = new AtomicBoolean();
  final CountDownLatch release = new CountDownLatch(1);

  public double spin() {
    entered.countDown();
    double x = 0;
    while (!stop.get()) {
      x += Math.sqrt(x + 1); // line 17: the loop
    }
    return x;
  }

  public void waitForever() throws InterruptedException {
    entered.countDown();
    release.await(); // line 24: the wait
  }
}
