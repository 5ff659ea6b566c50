package io.looplab.singleowner;

/**
 * What travels on the event bus between the verticles of this exercise. Given code: do not change it (the graded
 * tests speak this protocol to your verticles directly).
 *
 * <p>A request is a {@code JsonObject} such as {@code {"item": "apple"}} with the header {@link #ACTION} naming the
 * command. A success is answered with a {@code JsonObject}; a failure with {@code message.fail(code, reason)}, one of
 * the codes below, so that the caller receives a {@code ReplyException} whose {@code failureCode()} says what went
 * wrong.
 */
public final class Protocol {

  /** The stock owner's address: commands {@link #RESERVE} and {@link #COUNT}. */
  public static final String STOCK = "lab.stock";
  /** The legacy catalog worker's address: command {@link #DESCRIBE}. */
  public static final String CATALOG = "lab.catalog";

  /** The header that names the command. */
  public static final String ACTION = "action";
  /** Takes one unit of {@code item}; answers {@code {"item": ..., "left": n}}, the count left after it. */
  public static final String RESERVE = "reserve";
  /** Answers {@code {"item": ..., "left": n}}. */
  public static final String COUNT = "count";
  /** Answers {@code {"item": ..., "description": ...}}, from the legacy catalog. */
  public static final String DESCRIBE = "describe";

  /** Failure code: nothing left of the item to reserve. */
  public static final int OUT_OF_STOCK = 1;
  /** Failure code: the action header is missing or names no command of this address. */
  public static final int UNKNOWN_ACTION = 2;
  /** Failure code: the legacy catalog failed; the reason is its message. */
  public static final int LEGACY_FAILED = 3;

  private Protocol() {
  }
}
