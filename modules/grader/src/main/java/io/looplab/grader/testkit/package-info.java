/**
 * What a graded test needs besides its own story: waiting for a result on the test's thread with a message for
 * when it is late ({@link io.looplab.grader.testkit.Await}), checks whose message is the whole verdict
 * ({@link io.looplab.grader.testkit.Checks}), a step run on a given context ({@link io.looplab.grader.testkit.OnContext}),
 * a deployed HTTP service ({@link io.looplab.grader.testkit.DeployedService}) and the JVM warm-up before the first
 * graded test ({@link io.looplab.grader.testkit.WarmUp}). Every wait here is bounded: nothing a learner writes can
 * make a test hang.
 */
package io.looplab.grader.testkit;
