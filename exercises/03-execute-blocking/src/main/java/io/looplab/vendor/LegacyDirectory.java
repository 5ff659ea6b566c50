package io.looplab.vendor;

/**
 * The client of the company's old user directory, given to you as a library: you call it, you do not change it.
 *
 * <p>It is synchronous: {@link #displayName} blocks the calling thread until the directory answers, which takes
 * anything from a few milliseconds to several seconds. Calls for different users are independent, and the client is
 * thread-safe, but the directory serves at most {@link #MAX_CONNECTIONS} calls at once and refuses the rest.
 */
public interface LegacyDirectory {

  /** The most calls the directory accepts at the same time; one more is refused with an exception. */
  int MAX_CONNECTIONS = 4;

  /**
   * The display name of {@code userId}. Blocks until the directory answers.
   *
   * @throws LegacyDirectoryException when the directory fails, refuses the call, or does not know the user
   */
  String displayName(String userId) throws LegacyDirectoryException;
}
