package io.looplab.vendor;

/** The legacy directory failed to answer; the message says why. */
public class LegacyDirectoryException extends Exception {

  public LegacyDirectoryException(String message) {
    super(message);
  }
}
