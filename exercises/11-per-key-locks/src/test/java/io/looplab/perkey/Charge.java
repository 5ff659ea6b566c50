package io.looplab.perkey;

/** One charge the payment service was asked for. */
record Charge(String eventId, int seat) {
  @Override
  public String toString() {
    return eventId + " seat " + seat;
  }
}
