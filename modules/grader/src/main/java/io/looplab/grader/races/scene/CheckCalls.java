package io.looplab.grader.races.scene;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * The calls the learner's code made to the availability check, in the order made, with what each exercise notes
 * beside them (its own record {@code C}): the evidence behind "called when the count was 10" and "your code called
 * the availability check from reserve() at SeatCounter.java:41".
 *
 * @param <C> the exercise's record of one call
 */
public final class CheckCalls<C extends CheckCalls.Call> {

  /** What every exercise notes of a call: for whom, the count at that moment, and the learner's call site (or null). */
  public interface Call {
    String who();

    int count();

    String site();
  }

  private final List<C> calls = new CopyOnWriteArrayList<>();

  public void add(C call) {
    calls.add(call);
  }

  /** The calls so far, in the order made. */
  public List<C> all() {
    return List.copyOf(calls);
  }

  /** The first call made for {@code who}, or null when there was none. */
  public C firstFor(String who) {
    return calls.stream().filter(c -> c.who().equals(who)).findFirst().orElse(null);
  }

  /** The count at each call: "ada's, called when the count was 10; bob's, called when the count was 10". */
  public String countsInWords() {
    return calls.stream().map(c -> c.who() + "'s, called when the count was " + c.count())
        .collect(Collectors.joining("; "));
  }

  /**
   * Where the learner's code made the calls, each place once, for the end of a message: " (your code called the
   * availability check from reserve() at SeatCounter.java:41)"; empty when no place is known.
   */
  public String inCode() {
    Set<String> sites = calls.stream().map(Call::site).filter(Objects::nonNull)
        .collect(Collectors.toCollection(LinkedHashSet::new));
    return sites.isEmpty() ? "" : " (your code called the availability check from " + String.join(" and ", sites)
        + ")";
  }
}
