package io.looplab.grader.guard;

import java.util.Optional;

/**
 * Which stack frames belong to the code being graded: the classes in the test's own package (and below it), other
 * than the test classes themselves. Reports name the first such frame, because that is the learner's line.
 */
public final class CodeUnderTest {

  private static volatile String packagePrefix = "";

  private CodeUnderTest() {
  }

  static void watchPackage(String packageName) {
    packagePrefix = packageName.isEmpty() ? "" : packageName + ".";
  }

  static boolean isWatched(StackTraceElement frame) {
    String prefix = packagePrefix;
    return !prefix.isEmpty() && frame.getClassName().startsWith(prefix) && !isTestClass(frame.getClassName());
  }

  private static boolean isTestClass(String className) {
    String outer = className.contains("$") ? className.substring(0, className.indexOf('$')) : className;
    return outer.endsWith("Test") || outer.endsWith("Tests");
  }

  /** Index of the first frame of the code under test, or -1. */
  static int firstFrameIndex(StackTraceElement[] stack) {
    for (int i = 0; i < stack.length; i++) {
      if (isWatched(stack[i])) {
        return i;
      }
    }
    return -1;
  }

  public static Optional<String> firstFrame(StackTraceElement[] stack) {
    int i = firstFrameIndex(stack);
    return i < 0 ? Optional.empty() : Optional.of(describe(stack[i]));
  }

  /** {@code File.java:line}, as a learner's editor understands it. */
  public static String describe(StackTraceElement frame) {
    String file = frame.getFileName() == null ? frame.getClassName() : frame.getFileName();
    return frame.getLineNumber() > 0 ? file + ":" + frame.getLineNumber() : file;
  }

  /**
   * True when the JVM is loading or linking a class above the learner's frame. The first call of a path in a
   * cold JVM can spend tens of milliseconds there; that is the JVM warming up, not the learner's mistake.
   */
  static boolean isWarmingUp(StackTraceElement[] stack, int upTo) {
    for (int i = 0; i < upTo && i < stack.length; i++) {
      String c = stack[i].getClassName();
      String m = stack[i].getMethodName();
      if (c.startsWith("jdk.internal.loader.") || c.startsWith("java.lang.invoke.")
          // BlockHound rewrites JDK classes as they load, through the instrumentation agent
          || c.startsWith("sun.instrument.") || c.startsWith("java.lang.instrument.") || c.startsWith("reactor.blockhound.shaded.")
          || c.equals("java.lang.ClassLoader") || c.startsWith("java.util.zip.") || c.startsWith("java.util.jar.")
          || m.equals("<clinit>") || m.equals("loadClass") || m.equals("defineClass") || m.equals("findClass")) {
        return true;
      }
    }
    return false;
  }
}
