package io.looplab.grader.internal.guard;

import io.looplab.grader.internal.settings.Settings;

/** The guard's knobs, read from system properties so that a forked test JVM can be tuned from outside (defined in {@link Settings}). */
public final class GuardSettings {

  /** A task that keeps an event loop busy this long without a break is a stall. */
  public static final String STALL_MILLIS = Settings.STALL_MS.name();

  /**
   * Debug mode, for stepping through code with a debugger: a breakpoint on an event loop looks exactly like a
   * stall, so stall detection is off. Blocking calls are still caught, since they do not depend on timing.
   * Turn it on with {@code -Dlooplab.debug=true} or the environment variable {@code LOOPLAB_DEBUG=1}.
   */
  public static final String DEBUG = Settings.DEBUG.name();

  /**
   * A loop still in the task of a reported stall this long after the task began is stuck: the test stops waiting
   * for it ({@link StuckLoops}).
   */
  public static final String STUCK_MILLIS = Settings.STUCK_MS.name();

  /** How often Vert.x's checker looks at the loops; it bounds the delay between a stall and its report. */
  static final long CHECK_INTERVAL_MILLIS = 10;

  private GuardSettings() {
  }

  /** The stall limit: the running test class's own ({@code GuardOptions}), else the setting's. */
  public static long stallMillis() {
    GuardSession session = GuardSession.current();
    long own = session == null ? 0 : session.options().stallMillis();
    return own > 0 ? own : Settings.STALL_MS.asLong();
  }

  /**
   * Its default, twenty stall limits: a task that runs this long is not a computation that got slow, and every second
   * more the test waits for it is a second of the exercise's time limit lost for nothing. The verdict does not depend
   * on it: a test with a stall has failed already.
   */
  static long stuckMillis() {
    return Settings.STUCK_MS.asLong();
  }

  public static boolean debug() {
    return Settings.DEBUG.isTrue() || Settings.DEBUG_VARIABLE.isSetAsFlag();
  }
}
