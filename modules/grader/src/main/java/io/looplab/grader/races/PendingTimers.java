package io.looplab.grader.races;

import io.looplab.grader.leaks.ShutdownCheck;
import io.vertx.core.Vertx;

import java.util.List;

/**
 * The Vert.x timers the code under test set and that are still scheduled, right now, while the verticle runs: for a
 * test that checks a timeout timer was cancelled when its wait ended some other way (a waiter that got the lock, a
 * reply that came in time). Vert.x's and Netty's own timers are not listed; they cancel themselves.
 */
public final class PendingTimers {

  private PendingTimers() {
  }

  /** One description per pending timer of the code, such as "a one-shot timer set in io.looplab.x.Foo". */
  public static List<String> of(Vertx vertx) {
    return ShutdownCheck.leftoversOf(vertx).stream().filter(leftover -> leftover.contains("timer")).toList();
  }
}
