package io.looplab.cli.engine;

/** Bad arguments or a malformed input: reported as one line, with exit status 2, before anything is graded. */
public final class UsageError extends RuntimeException {
  public UsageError(String message) {
    super(message);
  }
}
