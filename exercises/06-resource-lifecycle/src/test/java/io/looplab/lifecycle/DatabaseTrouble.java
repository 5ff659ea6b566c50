package io.looplab.lifecycle;

/** The errors the test's database fails with (or throws), when a test makes it fail. */
final class DatabaseTrouble extends RuntimeException {

  /** Why a query fails, when a test fails its future. */
  static final String LOCKED = "the table 'reports' is locked by a migration";

  /** What a connection throws, when a test makes its query throw instead of failing its future. */
  static final String LINK_BROKEN = "the link to the database broke";

  DatabaseTrouble(String message) {
    super(message, null, false, false);
  }

  /** True when {@code error}, or one of its causes, is the test's own error that says {@code words}. */
  static boolean is(Throwable error, String words) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof DatabaseTrouble && String.valueOf(t.getMessage()).equals(words)) {
        return true;
      }
    }
    return false;
  }
}
