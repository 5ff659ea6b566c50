package io.looplab.grader.internal.guard;

/**
 * The one phrase book for a frame of the learner's code in a message, so that the guard, the leak checks, the
 * scoring's failure lines and the tests' fakes name a place the same way: {@code "SeatCounter.java:41"} for the line,
 * {@code "reserve()"} or {@code "a lambda in start()"} for the method, {@code "reserve() at SeatCounter.java:41"} for
 * both, and {@code ", called from "} between a call and the method that made it.
 */
public final class LearnersFrame {

  /** Between a call, or an inner line, and the learner's method that made it: "X.y, called from reserve()". */
  public static final String CALLED_FROM = ", called from ";

  private LearnersFrame() {
  }

  /** {@code File.java:line}, as a learner's editor understands it (the class's name when the file is unknown). */
  public static String line(StackTraceElement frame) {
    String file = frame.getFileName() == null ? frame.getClassName() : frame.getFileName();
    return frame.getLineNumber() > 0 ? file + ":" + frame.getLineNumber() : file;
  }

  /** {@code account()}, {@code a lambda in start()}, {@code a constructor}, {@code a static initialiser}. */
  public static String method(String method) {
    if (method.startsWith("lambda$")) {
      // javac names a lambda lambda$<enclosing method>$<n>
      String[] parts = method.split("\\$");
      String outer = parts.length > 1 ? parts[1] : "";
      return outer.equals("new") ? "a lambda in a constructor"
          : outer.equals("static") ? "a lambda in a static initialiser" : "a lambda in " + outer + "()";
    }
    if (method.equals("<init>")) {
      return "a constructor";
    }
    if (method.equals("<clinit>")) {
      return "a static initialiser";
    }
    return method + "()";
  }

  /** {@code "reserve() at SeatCounter.java:41"}, or {@code "a lambda in reserve() at SeatCounter.java:44"}. */
  public static String methodAndLine(StackTraceElement frame) {
    return method(frame.getMethodName()) + " at " + line(frame);
  }
}
