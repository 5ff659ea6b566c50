package io.looplab.grader.internal.guard;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;

/**
 * The kit's one rule for "the calling code runs on this context", for the confinement detector and for tests (through
 * {@code sync.VerticleContext}, which cannot be this rule's home: the guard must not depend on the public helpers).
 * The current context must be the context or a duplicate of it (an HTTP handler's, a {@code setPeriodic} handler's),
 * and for an event-loop context the calling thread must be that context's own loop: {@code vertx.runOnContext(...)}
 * from a foreign thread makes a new context that may happen to land on the same loop, and code inside
 * {@code executeBlocking} runs on a worker thread that carries the verticle's context as its current one. A worker or
 * virtual-thread context runs its tasks on several threads one at a time, so there the context alone decides.
 */
public final class CurrentContext {

  private CurrentContext() {
  }

  /** Whether the calling code runs on {@code context} (or a duplicate of it), as the class comment says. */
  public static boolean is(Context context) {
    ContextInternal root = ((ContextInternal) context).unwrap();
    Context current = Vertx.currentContext();
    if (current == null || ((ContextInternal) current).unwrap() != root) {
      return false;
    }
    return !root.isEventLoopContext() || root.nettyEventLoop().inEventLoop();
  }
}
