package io.looplab.grader.internal.leaks;

import io.vertx.core.Vertx;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

/** What the guard remembers about each Vert.x instance it watches: its resources and the threads before it. */
public final class LeakWatch {

  private static final Map<Vertx, LeakWatch> watched = Collections.synchronizedMap(new WeakHashMap<>());

  private final ResourceTracker resources;
  private final ThreadCensus threadsBefore;

  private LeakWatch(ResourceTracker resources, ThreadCensus threadsBefore) {
    this.resources = resources;
    this.threadsBefore = threadsBefore;
  }

  /** Called by the guard as each Vert.x instance is created. */
  public static void register(Vertx vertx, ResourceTracker resources) {
    watched.put(vertx, new LeakWatch(resources, ThreadCensus.now()));
  }

  /** Every watched Vert.x instance that has not closed yet, with what the guard knows about it. */
  public static Map<Vertx, LeakWatch> live() {
    Map<Vertx, LeakWatch> live = new java.util.LinkedHashMap<>();
    synchronized (watched) {
      watched.forEach((vertx, watch) -> {
        if (!watch.resources.closed()) {
          live.put(vertx, watch);
        }
      });
    }
    return live;
  }

  public static LeakWatch of(Vertx vertx) {
    LeakWatch watch = watched.get(vertx);
    if (watch == null) {
      throw new IllegalStateException("This Vert.x instance is not watched by the Loop Lab guard. Create it inside a "
          + "test class annotated with @GradedVertxTest (or take it as a test parameter).");
    }
    return watch;
  }

  /** The servers, clients and pools created on this Vert.x instance, and which of them are still open. */
  public ResourceTracker resources() {
    return resources;
  }

  /** The threads that were alive when the instance was created. */
  public ThreadCensus threadsBefore() {
    return threadsBefore;
  }
}
