package io.looplab.grader.races.scene;

import io.looplab.grader.Outcome;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * Who has asked for a seat, in the order they asked, and what each has heard so far: the answers a message quotes
 * and the sales a {@link io.looplab.grader.races.SeatTally} counts. Answers arrive on the counter's threads while the
 * test reads them on its own, hence the concurrent collections.
 */
public final class Callers {

  private final List<String> callers = new CopyOnWriteArrayList<>();
  private final Map<String, Outcome<Boolean>> outcomes = new ConcurrentHashMap<>();

  /** {@code group} asked, in that order. */
  public void asked(List<String> group) {
    callers.addAll(group);
  }

  /** {@code who} heard {@code outcome}: true, false, or an error. */
  public void heard(String who, Outcome<Boolean> outcome) {
    outcomes.put(who, outcome);
  }

  public int count() {
    return callers.size();
  }

  public boolean hasAnswered(String who) {
    return outcomes.containsKey(who);
  }

  /** What {@code who} heard, or {@link Outcome#none()} before an answer. */
  public Outcome<Boolean> outcome(String who) {
    Outcome<Boolean> outcome = outcomes.get(who);
    return outcome == null ? Outcome.none() : outcome;
  }

  /** Every caller's answer, as "ada true, bob no answer yet". */
  public String answers() {
    return callers.stream().map(who -> who + " " + (hasAnswered(who) ? outcome(who).toString() : "no answer yet"))
        .collect(Collectors.joining(", "));
  }

  /** The callers told true, as "ada, bob". */
  public String soldTo() {
    return callers.stream().filter(this::toldTrue).collect(Collectors.joining(", "));
  }

  public int sold() {
    return (int) callers.stream().filter(this::toldTrue).count();
  }

  /** The callers with no answer yet, in the order they asked. */
  public List<String> unanswered() {
    return callers.stream().filter(who -> !hasAnswered(who)).toList();
  }

  private boolean toldTrue(String who) {
    return Boolean.TRUE.equals(outcome(who).value());
  }
}
