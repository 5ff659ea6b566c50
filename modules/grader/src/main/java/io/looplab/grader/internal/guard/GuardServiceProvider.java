package io.looplab.grader.internal.guard;

import io.looplab.grader.internal.leaks.LeakWatch;
import io.looplab.grader.internal.leaks.ResourceTracker;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.impl.VertxBootstrapImpl;
import io.vertx.core.internal.VertxBootstrap;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.spi.VertxServiceProvider;

import java.util.concurrent.TimeUnit;

/**
 * Vert.x loads this through ServiceLoader every time an instance is built. It does nothing unless a guarded test
 * class is running; then it tightens the blocked-thread checker, installs the resource tracker, and, once the
 * instance exists, hooks the guard's detectors into it (stalls, unhandled exceptions). So every Vert.x instance in a graded test
 * is watched, whoever creates it: vertx-junit5, the test, or the learner's code.
 */
public final class GuardServiceProvider implements VertxServiceProvider {

  private static volatile boolean armed;

  static void arm() {
    armed = true;
  }

  @Override
  public void init(VertxBootstrap bootstrap) {
    if (!armed) {
      return;
    }
    VertxOptions options = bootstrap.options();
    if (!GuardSettings.debug()) {
      // Half the stall limit: the detector takes a first CPU reading then, and judges at the limit.
      options.setMaxEventLoopExecuteTime(Math.max(1, GuardSettings.stallMillis() / 2))
          .setMaxEventLoopExecuteTimeUnit(TimeUnit.MILLISECONDS)
          .setBlockedThreadCheckInterval(GuardSettings.CHECK_INTERVAL_MILLIS)
          .setBlockedThreadCheckIntervalUnit(TimeUnit.MILLISECONDS);
    }
    if (bootstrap instanceof VertxBootstrapImpl impl && impl.metrics() == null) {
      impl.metrics(new ResourceTracker(GuardServiceProvider::watch));
    }
  }

  private static void watch(Vertx vertx, ResourceTracker tracker) {
    LeakWatch.register(vertx, tracker);
    // Every request that expects a reply, so that a test that runs out of time can say which one got none.
    vertx.eventBus().addOutboundInterceptor(delivery -> {
      String replyAddress = delivery.message().replyAddress();
      if (replyAddress != null) {
        tracker.inFlight().busRequestSent(delivery.message().address(), delivery.body(), replyAddress);
      }
      delivery.next();
    });
    for (Detector detector : EventLoopGuard.DETECTORS) {
      detector.watch((VertxInternal) vertx);
    }
  }
}
