package io.looplab.legacy;

import java.io.IOException;

/**
 * A blocking client for the old catalog server, as a vendor ships it. Given code: do not change it.
 * <ul>
 *   <li>{@link #describe} blocks the calling thread until the server answers: never call it on an event loop;</li>
 *   <li>it is not thread-safe: one call at a time;</li>
 *   <li>opening it starts a keep-alive thread (the vendor's, named {@code legacy-catalog-keepalive}) that pings the
 *       server until {@link #close} is called. Whoever opens the client closes it.</li>
 * </ul>
 */
public final class LegacyCatalog implements AutoCloseable {

  private final CatalogBackend backend;
  private final Thread keepAlive;
  private volatile boolean closed;

  /** Opens the client: connects and starts the keep-alive thread. */
  public LegacyCatalog(CatalogBackend backend) {
    this.backend = backend;
    this.keepAlive = new Thread(this::keepAlive, "legacy-catalog-keepalive");
    keepAlive.setDaemon(true);
    keepAlive.start();
  }

  /** The server's description of {@code item}. Blocks until the server answers. */
  public String describe(String item) throws LegacyCatalogException {
    if (closed) {
      throw new LegacyCatalogException("the catalog client is closed", null);
    }
    try {
      return backend.lookUp(item);
    } catch (IOException e) {
      throw new LegacyCatalogException("catalog server failed: " + e.getMessage(), e);
    }
  }

  /** Stops the keep-alive thread and disconnects. Safe to call more than once. */
  @Override
  public void close() {
    closed = true;
    keepAlive.interrupt();
  }

  private void keepAlive() {
    while (!closed) {
      try {
        Thread.sleep(1_000); // the vendor's ping, every second
      } catch (InterruptedException e) {
        return;
      }
    }
  }
}
