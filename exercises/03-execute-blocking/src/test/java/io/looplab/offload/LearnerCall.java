package io.looplab.offload;

import io.looplab.grader.sync.CallSite;

/** Where the learner's code called one of the test's fakes, in the guard's own words. */
final class LearnerCall {

  private LearnerCall() {
  }

  /**
   * The learner's call that led to the fake running this, as the guard says it: "LegacyDirectory.displayName
   * (...), called from lookUpUser() at AccountsVerticle.java:73".
   */
  static String here() {
    return CallSite.ofCurrentCallAndCallee()
        .orElse("a place outside " + AccountsVerticle.class.getPackageName());
  }
}
