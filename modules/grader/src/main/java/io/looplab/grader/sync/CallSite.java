package io.looplab.grader.sync;

import io.looplab.grader.internal.guard.CodeUnderTest;
import io.looplab.grader.internal.guard.LearnersFrame;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Where the code under test was when it made a call: the first frame of the learner's code on the calling thread's
 * stack, as {@code "reserve() at SeatCounter.java:41"}. A race leaves no stack trace that points at the learner, so a
 * fake dependency records this for each call it receives, and a message can name the learner's method that was
 * running beside the test's own line. "The learner's code" is decided by {@link CodeUnderTest}, as for the guard's
 * reports: the classes of the test's package that were not loaded from where the graded test was.
 */
public final class CallSite {

  /** How many of the learner's lines a path names at most. */
  static final int MAX_PATH = 3;

  private CallSite() {
  }

  /**
   * The learner's frame nearest to the caller on the current thread's stack, described as
   * {@code "method() at File.java:line"}; empty when no frame of the code under test is on the stack (the call came
   * from the test itself, from a library, or the guard is not watching a package).
   */
  public static Optional<String> ofCurrentCall() {
    return of(new Throwable().getStackTrace());
  }

  /**
   * The learner's line on the current thread's stack together with the call it made from there into code it did not
   * write, in the guard's words: {@code "LegacyDirectory.displayName (a blocking client), called from lookUpUser()
   * at AccountsVerticle.java:73"}. For a fake that says, in its own failure message, which call of the learner's
   * reached it. Empty when no frame of the code under test is on the stack.
   */
  public static Optional<String> ofCurrentCallAndCallee() {
    return CodeUnderTest.callSiteHere().map(Object::toString);
  }

  /** The first frame of the code under test in {@code stack}, described as in {@link #ofCurrentCall()}. */
  public static Optional<String> of(StackTraceElement[] stack) {
    for (StackTraceElement frame : stack) {
      if (CodeUnderTest.isLearnersClass(frame.getClassName())) {
        return Optional.of(LearnersFrame.methodAndLine(frame));
      }
    }
    return Optional.empty();
  }

  /**
   * The lines of the code under test in {@code stack} (the nearest {@value #MAX_PATH}), nearest first, joined as
   * {@code "book() at SeatBookings.java:107, called from a lambda in book() at SeatBookings.java:83"}: the way an
   * exception thrown by a fake went up through the learner's code. For a message about what that code did (or did
   * not do) on the way, such as releasing a lock. Empty when no frame of the code under test is on the stack.
   */
  public static Optional<String> pathOf(StackTraceElement[] stack) {
    List<String> frames = new ArrayList<>();
    String lastLine = null;
    for (StackTraceElement frame : stack) {
      String line = LearnersFrame.line(frame);
      // A lambda run at once by the method that wrote it (say, compose on a completed future) shows that line twice.
      if (CodeUnderTest.isLearnersClass(frame.getClassName()) && !line.equals(lastLine)) {
        frames.add(LearnersFrame.methodAndLine(frame));
        lastLine = line;
      }
    }
    if (frames.size() > MAX_PATH) {
      // The nearest lines say where it went wrong; the rest, down to where the request came in, only add length.
      frames = new ArrayList<>(frames.subList(0, MAX_PATH));
      frames.set(MAX_PATH - 1, frames.get(MAX_PATH - 1) + ", and further down");
    }
    return frames.isEmpty() ? Optional.empty() : Optional.of(String.join(LearnersFrame.CALLED_FROM, frames));
  }
}
