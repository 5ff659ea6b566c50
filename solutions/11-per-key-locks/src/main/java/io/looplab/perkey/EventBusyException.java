package io.looplab.perkey;

/**
 * A booking gave up waiting for its event's lock: another booking of the same event held it for longer than the
 * lock timeout. It is not a bug and nothing was booked or charged: the caller may simply try again.
 * {@link BookingVerticle} answers it with HTTP 503 and a {@code Retry-After} header.
 */
public class EventBusyException extends RuntimeException {

  private final String eventId;
  private final long waitedMillis;

  public EventBusyException(String eventId, long waitedMillis) {
    super("event '" + eventId + "' is busy: another booking held it for more than " + waitedMillis
        + " ms; nothing was booked, try again");
    this.eventId = eventId;
    this.waitedMillis = waitedMillis;
  }

  public String eventId() {
    return eventId;
  }

  public long waitedMillis() {
    return waitedMillis;
  }
}
