package io.looplab.beyond;

import io.looplab.grader.Outcome;
import org.opentest4j.AssertionFailedError;

import java.util.List;
import java.util.stream.Stream;

/** What happened when node A (ada) and then node B (bob) reserved one seat of the same show. */
final class Race {
  final Outcome<Boolean> ada;
  final Outcome<Boolean> bob;
  /** True when node B reached its call while node A's was held: the nodes were not taking turns. */
  final boolean overlapped;
  /** True when node B read the ledger after node A's read but while node A's write was held. */
  final boolean readDuringWrite;
  final String releases;

  Race(Outcome<Boolean> ada, Outcome<Boolean> bob, boolean overlapped, boolean readDuringWrite, String releases) {
    this.ada = ada;
    this.bob = bob;
    this.overlapped = overlapped;
    this.readDuringWrite = readDuringWrite;
    this.releases = releases;
  }

  long yesCount() {
    return Stream.of(ada, bob).filter(Outcome.of(true)::equals).count();
  }

  void assertNoErrors() {
    for (Outcome<Boolean> o : List.of(ada, bob)) {
      if (o.isFailure()) {
        throw new AssertionFailedError((o == ada ? "ada (node A)" : "bob (node B)") + "'s reservation failed: "
            + o.error().getMessage() + ". " + this + ".");
      }
    }
  }

  @Override
  public String toString() {
    return "ada (node A) was told " + ada + " and bob (node B) " + bob + "; " + releases;
  }
}
