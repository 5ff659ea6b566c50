package io.looplab.grader.internal.guard;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The standard-error line for a blocking call that is not the learner's: names its caller, and is said once. */
class OutsideCallLineTest {

  private static StackTraceElement frame(String type, String method, int line) {
    return new StackTraceElement(type, method, type.substring(type.lastIndexOf('.') + 1) + ".java", line);
  }

  @Test
  @DisplayName("the line names the first caller below the JDK, BlockHound and the guard, and is said once per caller")
  void namesTheCallerOnce() {
    String spin = "java.lang.Thread.onSpinWait " + System.nanoTime(); // unique to this test in this JVM
    StackTraceElement[] stack = {
        frame("io.looplab.grader.internal.guard.BlockingCallDetector", "onBlockingCall", 99),
        frame("reactor.blockhound.BlockHoundRuntime", "checkBlocking", 80),
        frame("java.lang.Thread", "onSpinWait", 1),
        frame("io.looplab.eventloop.FieldWatch", "lambda$around$0", 67),
        frame("io.vertx.core.impl.ContextImpl", "emit", 10)};
    String first = line(spin, stack);
    assertTrue(first.endsWith("from io.looplab.eventloop.FieldWatch.lambda$around$0(FieldWatch.java:67) "
        + "(said once for this call and caller)"), first);
    assertNull(line(spin, stack), "a second identical call from the same caller is not said again");

    StackTraceElement[] other = stack.clone();
    other[3] = frame("io.looplab.eventloop.SceneWarmUp", "spin", 12);
    String second = line(spin, other);
    assertEquals("looplab: not graded, a blocking call outside the code under test: " + spin
        + " on vert.x-eventloop-thread-0 from io.looplab.eventloop.SceneWarmUp.spin(SceneWarmUp.java:12) "
        + "(said once for this call and caller)", second, "another caller of the same call is said");
  }

  private static String line(String call, StackTraceElement[] stack) {
    return BlockingCallDetector.outsideLine(call, "vert.x-eventloop-thread-0", stack, 0);
  }
}
