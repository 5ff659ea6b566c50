package io.looplab.grader.races.scene;

import io.looplab.grader.sync.Gate;

import java.util.function.Supplier;

/**
 * What the test's availability check answers for one person, once called. A check that throws instead of returning
 * a future is not an answer: the scene decides that when the call is made ({@link SeatScene#throwFor}).
 */
public enum Answer {
  YES, NO, FAIL;

  /**
   * The release of {@code gate} that gives this answer: true, false, or a failure made by {@code outage}, which is
   * called only for {@link #FAIL} (a scene may note the error it gave, to tell it later from one passed on).
   */
  public Gate.Release releasing(Gate<Boolean> gate, Supplier<? extends Throwable> outage) {
    return switch (this) {
      case YES -> gate.opening(true);
      case NO -> gate.opening(false);
      case FAIL -> gate.failing(outage.get());
    };
  }

  /** The test's step, for a message's "after the test ...": "answered ada's check with yes", "failed bob's check". */
  public String stepInWords(String who) {
    return switch (this) {
      case YES -> "answered " + who + "'s check with yes";
      case NO -> "answered " + who + "'s check with no";
      case FAIL -> "failed " + who + "'s check";
    };
  }
}
