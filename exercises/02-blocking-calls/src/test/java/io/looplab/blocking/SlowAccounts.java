package io.looplab.blocking;

/** A fake legacy client that takes a few milliseconds to answer, blocking its caller the whole time. */
final class SlowAccounts implements LegacyAccounts {
  @Override
  public String ownerOf(String accountId) {
    try {
      Thread.sleep(5);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    return "Grace Hopper";
  }
}
