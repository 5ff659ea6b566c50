package io.looplab.background;

/** The error the test's rates feed fails with (or throws), when a test makes it fail. */
final class FeedDown extends RuntimeException {

  /** Why a call's future fails, when a test makes it fail. */
  static final String OUTAGE = "the rates upstream answered 503";

  /** Why a call's future fails the next time, when a test makes two runs in a row fail with different errors. */
  static final String OUTAGE_AGAIN = "the rates upstream answered 502";

  /** What the test's feed throws, when a test makes the call itself throw. */
  static final String CLOSED = "the rates client is closed";

  FeedDown(String message) {
    this(message, false);
  }

  /**
   * The error a call throws, made where it is thrown and with its stack: when it escapes to Vert.x, the report names
   * the learner's line it came through. (The errors a future fails with need none: they never escape that way.)
   */
  static FeedDown thrownHere(String message) {
    return new FeedDown(message, true);
  }

  private FeedDown(String message, boolean withStack) {
    super(message, null, false, withStack);
  }

  /** True when {@code error}, or one of its causes, says {@code words}. */
  static boolean says(Throwable error, String words) {
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (String.valueOf(t.getMessage()).contains(words)) {
        return true;
      }
    }
    return false;
  }
}
