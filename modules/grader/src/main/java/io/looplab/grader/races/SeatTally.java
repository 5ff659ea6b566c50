package io.looplab.grader.races;

import org.opentest4j.AssertionFailedError;

import java.util.function.Supplier;

/**
 * A seat count after a race: how many seats the show had, how many the counter says are free, and who was told
 * they have one. Each caller told yes must hold exactly one seat; the verdicts say which way that failed, in the
 * words of the lost-update exercises: seats taken without a yes, writes overwritten (fewer seats taken than sold),
 * or more yeses than seats.
 *
 * <p>What the counts alone cannot say (why the writes were lost, where in the learner's code) comes from the
 * exercise's own evidence, through the suppliers.
 *
 * @param seats  the show's seats at the start
 * @param free   what the counter says now
 * @param sold   how many callers were told yes
 * @param soldTo those callers, as "ada, bob"
 */
public record SeatTally(int seats, int free, int sold, String soldTo) {

  /** The seats gone from the count. */
  public int taken() {
    return seats - free;
  }

  /**
   * Passes when the seats taken equal the seats sold and the count is not negative.
   *
   * @param answers    every caller's answer, for a count that lost seats without a sale
   * @param order      the order the test answered in, as "the test answered the checks in this order: ..."
   * @param whyLost    the evidence for overwritten writes, with the learner's code
   * @param whyOversold the evidence for more yeses than seats (see {@link #assertNotOversold})
   */
  public void assertEachSaleOneSeat(String answers, String order, Supplier<String> whyLost,
                                    Supplier<String> whyOversold) {
    int taken = taken();
    if (taken >= sold && free >= 0) {
      if (taken != sold) {
        throw new AssertionFailedError("The counter lost seats: " + sold + " reservations were told they have a "
            + "seat, but the count went from " + seats + " to " + free + ". Only a reservation that answers true "
            + "may take a seat; a no or a failed check must leave the count as it was. Answers: " + answers + ".");
      }
      return;
    }
    if (free < 0) {
      assertNotOversold(order, whyOversold);
    }
    throw new AssertionFailedError("Lost update: " + sold + " reservations (" + soldTo + ") were told they have a "
        + "seat, but the count went from " + seats + " to " + free + " free seats, not " + (seats - sold) + ": "
        + (sold - taken == 1 ? "one write overwrote another" : (sold - taken) + " writes were overwritten")
        + " (" + order + "). " + whyLost.get() + ".");
  }

  /** Passes when no more callers were told yes than there were seats, and the count is not negative. */
  public void assertNotOversold(String order, Supplier<String> whyOversold) {
    if (sold <= seats && free >= 0) {
      return;
    }
    throw new AssertionFailedError("Oversold: " + sold + " callers (" + soldTo + ") were told they have a seat, but "
        + "the show had only " + seats + "; freeSeats() now says " + free + " (" + order + "). " + whyOversold.get());
  }
}
