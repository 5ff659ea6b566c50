package io.looplab.blocking;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A fake legacy client that really blocks: each call waits on a latch until the test releases it, as a socket read
 * waits for a slow server. On an event loop, that wait is what the guard catches.
 */
final class HeldAccounts implements LegacyAccounts {
  /** Counted down when the code calls {@link #ownerOf}. */
  final CountDownLatch entered = new CountDownLatch(1);
  /** The test counts it down to let the call answer. */
  final CountDownLatch release = new CountDownLatch(1);
  private final String owner;

  HeldAccounts(String owner) {
    this.owner = owner;
  }

  @Override
  public String ownerOf(String accountId) {
    entered.countDown();
    try {
      if (!release.await(QuoteServiceTest.ANSWER.toNanos(), TimeUnit.NANOSECONDS)) {
        throw new IllegalStateException("the test never released the legacy call");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the old server", e);
    }
    return owner;
  }
}
