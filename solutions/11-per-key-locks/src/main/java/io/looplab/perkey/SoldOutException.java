package io.looplab.perkey;

/** Every seat of the event is sold. {@link BookingVerticle} answers it with HTTP 409. */
public class SoldOutException extends RuntimeException {

  private final String eventId;

  public SoldOutException(String eventId) {
    super("event '" + eventId + "' is sold out");
    this.eventId = eventId;
  }

  public String eventId() {
    return eventId;
  }
}
