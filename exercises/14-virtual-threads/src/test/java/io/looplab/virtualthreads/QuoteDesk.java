package io.looplab.virtualthreads;

import io.looplab.grader.Outcome;
import io.looplab.grader.races.Fresh;
import io.looplab.grader.sync.ContextSettle;
import io.looplab.grader.sync.Gate;
import io.looplab.grader.sync.GatedDependency;
import io.looplab.grader.testkit.OnContext;
import io.vertx.core.Context;
import org.opentest4j.AssertionFailedError;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The learner's TicketQuotes on a virtual-thread context ({@link Stage}), with a gated price list and a gated loyalty
 * programme: each lookup waits until the test answers it. After each step the test lets the context run until it has
 * nothing left to do ({@link ContextSettle}), so "how many lookups are in flight" is a fact, not a race.
 */
final class QuoteDesk implements AutoCloseable {

  static final int BASE_PRICE = 4_000;
  static final int DISCOUNT = 25;
  static final int QUOTE = BASE_PRICE * (100 - DISCOUNT) / 100;

  private final Stage stage = Stage.open();
  private final Context context = stage.context();
  final GatedDependency<String, Integer> prices = new GatedDependency<>();
  final GatedDependency<String, Integer> discounts = new GatedDependency<>();
  private final TicketQuotes quotes;
  private volatile Outcome<Integer> outcome = Outcome.none();
  private volatile boolean deadlocked;

  QuoteDesk() {
    quotes = OnContext.call(context, () -> new TicketQuotes(() -> prices.apply("the show"),
        discounts::apply), ShowScene.WAIT);
  }

  /** {@code who} asks for a quote: one task of the context, which then runs until it has nothing left to do. */
  void quote(String who) {
    outcome = Outcome.none();
    context.runOnContext(v -> {
      try {
        outcome = Outcome.of(quotes.quote(Fresh.copyOf(who)));
      } catch (Throwable error) {
        outcome = Outcome.failed(error);
      }
    });
    settle();
  }

  Outcome<Integer> outcome() {
    return outcome;
  }

  /** The lookups in flight, price first. */
  List<Gate<Integer>> inFlight() {
    List<Gate<Integer>> pending = new ArrayList<>();
    prices.calledSoFar().stream().filter(Gate::isPending).forEach(pending::add);
    discounts.calledSoFar().stream().filter(Gate::isPending).forEach(pending::add);
    return pending;
  }

  /** Whom the loyalty programme was asked about, in the order asked. */
  List<String> discountsAskedFor() {
    return discounts.calledSoFar().stream().map(g -> String.valueOf(g.argument())).toList();
  }

  boolean isPrice(Gate<Integer> gate) {
    return prices.calledSoFar().contains(gate);
  }

  /** Where the learner's code asked for the lookups so far, for a message. */
  String callSites() {
    List<String> sites = new ArrayList<>();
    prices.calledSoFar().forEach(g -> g.callSite().ifPresent(s -> sites.add("the price from " + s)));
    discounts.calledSoFar().forEach(g -> g.callSite().ifPresent(s -> sites.add("the discount from " + s)));
    return sites.isEmpty() ? "" : " (your code asked for " + String.join(", and ", sites) + ")";
  }

  /** Answers the gates in one task of the context, then lets it run all that follows. */
  void release(List<Gate.Release> releases) {
    Gate.releaseTogether(releases);
    settle();
  }

  /**
   * Answers lookups until the quote has answered: each lookup with its value, except that {@code failing} (the price
   * or the discount, or null for none) fails. Each in turn, in the order given by {@code priceFirst}.
   */
  void driveToTheEnd(boolean priceFirst, String failing, RuntimeException error) {
    driveToTheEnd(priceFirst, BASE_PRICE, DISCOUNT, failing, error);
  }

  /** The same, with the lookups answering {@code base} and {@code discount}. */
  void driveToTheEnd(boolean priceFirst, int base, int discount, String failing, RuntimeException error) {
    for (int round = 0; round < 4 && outcome.equals(Outcome.none()); round++) {
      List<Gate<Integer>> pending = inFlight();
      if (pending.isEmpty()) {
        break;
      }
      Gate<Integer> next = pending.stream().filter(g -> isPrice(g) == priceFirst).findFirst().orElse(pending.get(0));
      boolean price = isPrice(next);
      boolean fails = price ? "price".equals(failing) : "discount".equals(failing);
      release(List.of(fails ? next.failing(error) : next.opening(price ? base : discount)));
    }
  }

  private void settle() {
    if (!ContextSettle.settleUnlessHeld(context, Duration.ofMillis(ShowScene.STUCK_MILLIS), ShowScene.WAIT)) {
      deadlocked = true;
      throw new AssertionFailedError("The quote kept the verticle's context for " + ShowScene.STUCK_MILLIS + " ms "
          + "and more, waiting" + ContextSettle.holder(context).map(t -> ", " + ContextSettle.waitInWords(t))
          .orElse("") + ". On a virtual thread, wait for a Vert.x future with await(): it lets the context go. "
          + "Any other wait (a JDK future's get(), a latch, a sleep) keeps it, and nothing else of the verticle runs.");
    }
  }

  @Override
  public void close() {
    stage.close(deadlocked);
  }
}
