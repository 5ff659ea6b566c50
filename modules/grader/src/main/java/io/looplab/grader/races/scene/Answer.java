package io.looplab.grader.races.scene;

import io.looplab.grader.sync.Gate;

import java.util.function.Supplier;

/**
 * What the test's availability check answers for one person. {@link #THROW}: the call itself throws, instead of
 * returning a future (a client whose connection is closed does that); a scene decides it when the call is made, so a
 * gate is never released with it.
 */
public enum Answer {
  YES, NO, FAIL, THROW;

  /**
   * The release of {@code gate} that gives this answer: true, false, or a failure made by {@code outage}, which is
   * called only for {@link #FAIL} (a scene may note the error it gave, to tell it later from one passed on).
   */
  public Gate.Release releasing(Gate<Boolean> gate, Supplier<? extends Throwable> outage) {
    return switch (this) {
      case NO -> gate.opening(false);
      case FAIL -> gate.failing(outage.get());
      default -> gate.opening(true);
    };
  }

  /** The test's step, for a message's "after the test ...": "answered ada's check with yes", "failed bob's check". */
  public String stepInWords(String who) {
    return switch (this) {
      case NO -> "answered " + who + "'s check with no";
      case FAIL -> "failed " + who + "'s check";
      default -> "answered " + who + "'s check with yes";
    };
  }
}
