package io.looplab.grader.internal.guard;

/** The guard's knobs, read from system properties so that a forked test JVM can be tuned from outside. */
public final class GuardSettings {

  /** A task that keeps an event loop busy this long without a break is a stall. */
  public static final String STALL_MILLIS = "looplab.stall.ms";

  /**
   * Debug mode, for stepping through code with a debugger: a breakpoint on an event loop looks exactly like a
   * stall, so stall detection is off. Blocking calls are still caught, since they do not depend on timing.
   * Turn it on with {@code -Dlooplab.debug=true} or the environment variable {@code LOOPLAB_DEBUG=1}.
   */
  public static final String DEBUG = "looplab.debug";

  static final long DEFAULT_STALL_MILLIS = 50;

  /** How often Vert.x's checker looks at the loops; it bounds the delay between a stall and its report. */
  static final long CHECK_INTERVAL_MILLIS = 10;

  private GuardSettings() {
  }

  public static long stallMillis() {
    return Long.getLong(STALL_MILLIS, DEFAULT_STALL_MILLIS);
  }

  public static boolean debug() {
    String env = System.getenv("LOOPLAB_DEBUG");
    return Boolean.getBoolean(DEBUG) || (env != null && !env.isBlank() && !env.equals("0") && !env.equalsIgnoreCase("false"));
  }
}
