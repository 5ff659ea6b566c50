package io.looplab.grader.internal.guard;

/**
 * {@link StillPending}'s sentence, attached by the guard as a suppressed exception to a test that ran out of time;
 * the report adds it to the failure's message.
 */
public final class PendingNote extends RuntimeException {

  public PendingNote(String sentence) {
    super(sentence, null, false, false);
  }

  /** The sentence attached to {@code failure} or to one of its causes, or "". */
  public static String in(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      for (Throwable suppressed : t.getSuppressed()) {
        if (suppressed instanceof PendingNote note) {
          return note.getMessage();
        }
      }
    }
    return "";
  }
}
