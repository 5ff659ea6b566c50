package io.looplab.grader.leaks;

import io.looplab.grader.internal.leaks.LeakWatch;
import io.vertx.core.Vertx;

import java.util.Map;

/** The named worker pools a Vert.x instance has open right now, for tests about bounded offloading. */
public final class WorkerPools {

  private WorkerPools() {
  }

  /** Pool name to maximum size, for every pool created by the code and not closed; Vert.x's own are left out. */
  public static Map<String, Integer> open(Vertx vertx) {
    return LeakWatch.of(vertx).resources().openWorkerPools();
  }
}
