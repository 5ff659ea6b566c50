package io.looplab.legacy;

/** The legacy catalog could not answer: the server failed, or the client is closed. Given code: do not change it. */
public class LegacyCatalogException extends Exception {

  public LegacyCatalogException(String message, Throwable cause) {
    super(message, cause);
  }
}
