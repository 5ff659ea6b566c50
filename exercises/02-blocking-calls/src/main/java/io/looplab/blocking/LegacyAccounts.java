package io.looplab.blocking;

/**
 * The old account system's client library. It is synchronous: {@link #ownerOf} blocks the calling thread until the
 * old server answers, which can take a long time. It is safe to call from any thread, and from several at once.
 * There is no asynchronous version of it, and there never will be.
 */
public interface LegacyAccounts {

  /** The owner's name of account {@code accountId}; blocks until the old server answers. */
  String ownerOf(String accountId);
}
