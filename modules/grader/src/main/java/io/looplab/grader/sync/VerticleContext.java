package io.looplab.grader.sync;

import io.looplab.grader.internal.guard.CurrentContext;
import io.vertx.core.Context;
import io.vertx.core.internal.ContextInternal;

/**
 * The kit's one rule for "this runs on the verticle's context". Vert.x hands some callbacks a <em>duplicate</em> of the
 * verticle's context rather than the context itself: an HTTP request's handler, a {@code setPeriodic} handler, a
 * {@code vertx.timer(...)} completion. A duplicate runs on the same thread, in the same order, as the context it was
 * made from, so code on it owns the verticle's state just as well. Comparing contexts by identity would blame a
 * correct design for "not the verticle's event loop"; every exercise asks this class instead.
 */
public final class VerticleContext {

  private VerticleContext() {
  }

  /** The context a duplicate was made from; the context itself when it is no duplicate; null for null. */
  public static Context rootOf(Context context) {
    return context == null ? null : ((ContextInternal) context).unwrap();
  }

  /** Whether {@code context} is {@code verticles} or a duplicate of it. Null matches nothing. */
  public static boolean isSameContext(Context context, Context verticles) {
    return context != null && verticles != null && rootOf(context) == rootOf(verticles);
  }

  /**
   * Whether the calling code runs on {@code verticles}'s context (or a duplicate of it), on that context's own thread.
   * Both matter: {@code vertx.runOnContext(...)} from a foreign thread makes a new context that may happen to land on
   * the same event-loop thread, and code inside {@code executeBlocking} runs on a worker thread that carries the
   * verticle's context as its current one. For a worker or virtual-thread context, which runs its tasks on several
   * threads one at a time, the context alone decides. The rule is the confinement detector's own
   * ({@link CurrentContext}). False for null.
   */
  public static boolean isCurrent(Context verticles) {
    return verticles != null && CurrentContext.is(verticles);
  }

  /** "the verticle's context", "a duplicate of the verticle's context", "another context", "no Vert.x context". */
  public static String describe(Context context, Context verticles) {
    if (context == null) {
      return "no Vert.x context";
    }
    if (!isSameContext(context, verticles)) {
      return "another Vert.x context than the verticle's";
    }
    return rootOf(context) == context ? "the verticle's context" : "a duplicate of the verticle's context";
  }
}
