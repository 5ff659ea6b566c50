package io.looplab.legacy;

import java.io.IOException;

/**
 * The old catalog server as {@link LegacyCatalog} sees it: one synchronous round trip per call. The call blocks the
 * thread that makes it until the server answers, which can take seconds. Given code: do not change it (the graded
 * tests bring a server of their own, which answers when the test says so).
 */
public interface CatalogBackend {

  /** The server's description of {@code item}; blocks until it answers. */
  String lookUp(String item) throws IOException;
}
