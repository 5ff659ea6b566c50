package io.looplab.eventloop;

/** The error the test's directory fails a lookup with. */
final class DirectoryDown extends RuntimeException {

  DirectoryDown(String message) {
    super(message, null, false, false);
  }
}
