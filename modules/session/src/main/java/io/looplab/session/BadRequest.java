package io.looplab.session;

/** A request the server refuses, with the HTTP status and one sentence for the client. */
final class BadRequest extends RuntimeException {
  private final int status;

  BadRequest(int status, String sentence) {
    super(sentence, null, false, false);
    this.status = status;
  }

  int status() {
    return status;
  }
}
