package io.looplab.beyond;

import io.looplab.beyond.Services.LedgerRead;
import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Outcome;
import io.looplab.grader.Points;
import io.looplab.grader.leaks.ShutdownCheck;
import io.looplab.grader.sync.EveryOrder;
import io.looplab.grader.sync.GatedDependency;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;
import org.opentest4j.AssertionFailedError;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static io.looplab.beyond.Limits.QUIT;
import static io.looplab.beyond.Limits.STUCK_MILLIS;
import static io.looplab.beyond.Limits.WAIT;
import static io.looplab.beyond.Races.callOrAnswer;
import static io.looplab.beyond.Races.open;
import static io.looplab.grader.testkit.Checks.require;

/**
 * Part two: grades ClusterSeats with two real processes, two members of one Hazelcast cluster ({@link SeatNode}),
 * which keep their seats in the test's ledger ({@link Services}) over HTTP on 127.0.0.1. The test holds the
 * ledger's reads and writes, and decides which node's read answers first ({@link Races}). It judges only what
 * callers were told and what the ledger ends at.
 */
@GradedVertxTest
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@Order(2)
@DisplayName("13 Beyond one process: part two, two JVMs reserve the same seats under a cluster lock")
class ClusterSeatsTest {

  private static final String READ_DURING_WRITE = "The nodes did take turns for the read: node B read only after "
      + "node A's read was answered, but while node A's write was still on its way, so node B read the count from "
      + "before that write. The critical section ended before the write: the lock was let go once the read "
      + "answered. Hold it until the write's future completes (release it in a callback on the whole reservation's "
      + "future, as withLock does), so that the next node reads what the last one wrote.";

  private static Services services;
  private static final Reservations reservations = new Reservations();
  private static Races races;
  private static final NodePair clusterNodes = new NodePair(() -> {
    String cluster = "looplab-" + UUID.randomUUID();
    int portA = NodePair.freePort();
    int portB = NodePair.freePort();
    return NodePair.startPair(
        () -> SeatNode.launchCluster("node A", cluster, portA, portB, services.port()),
        () -> SeatNode.launchCluster("node B", cluster, portB, portA, services.port()), true);
  });

  @BeforeAll
  static void startTheTestsServices() {
    services = Services.start();
    races = new Races(services, reservations);
  }

  @AfterAll
  static void stopEverything() {
    clusterNodes.close();
    if (services != null) {
      services.close();
    }
  }

  @Test
  @Order(5)
  @Points(2)
  @DisplayName("part two, one cluster node at a time: a free seat is taken from the ledger, and a sold-out show "
      + "answers false")
  void clusterOneAtATime() {
    Nodes nodes = clusterNodes.get();
    services.readsAnsweredAtOnce = true;
    services.writesAppliedAtOnce = true;
    String show = services.newLedgerShow(2);
    reservations.expect(nodes.a(), show, "ada", Outcome.of(true), "2 seats were free");
    assertLedger(show, 1, "ada took one of 2 seats");
    String soldOut = services.newLedgerShow(0);
    reservations.expect(nodes.b(), soldOut, "bob", Outcome.of(false), "the show had no free seat");
    assertLedger(soldOut, 0, "a show with no free seat");
  }

  @TestFactory
  @Order(6)
  @Points(6)
  @DisplayName("part two, two cluster nodes race for the last seat: exactly one caller is told yes, whichever read "
      + "answers first")
  Stream<DynamicTest> clusterLastSeatIsSoldOnce() {
    return EveryOrder.of(2, order -> {
      Nodes nodes = clusterNodes.get();
      String show = services.newLedgerShow(1);
      Race race = races.readRace(nodes, show, order);

      race.assertNoErrors();
      int free = services.ledger.get(show);
      require(race.yesCount() == 1, race.yesCount() == 2
          ? "Overbooked: ada on node A and bob on node B were both told they have the last seat. " + race + ". "
              + (race.overlapped ? "Node B read the ledger while node A was between its read and its write: each "
                  + "node's local lock is its own, so it kept nothing apart. In a clustered Vert.x, "
                  + "vertx.sharedData().getLock / withLock is one lock for every node." : "")
              + (race.readDuringWrite ? READ_DURING_WRITE : "")
          : "Nobody got the last seat: one of ada (node A) and bob (node B) should have. " + race + ".");
      require(free == 0, "The ledger ends at " + free + " free seats, but one caller was told yes out of 1: it must "
          + "end at 0. " + race + ".");
    });
  }

  @TestFactory
  @Order(7)
  @Points(4)
  @DisplayName("part two, two cluster nodes reserve at once with 10 seats free: both get a seat and the ledger ends "
      + "at 8, whichever read answers first")
  Stream<DynamicTest> clusterNoUpdateIsLost() {
    return EveryOrder.of(2, order -> {
      Nodes nodes = clusterNodes.get();
      String show = services.newLedgerShow(10);
      Race race = races.readRace(nodes, show, order);

      race.assertNoErrors();
      require(race.yesCount() == 2, "Both callers should get a seat out of 10 free, but: " + race + ".");
      int free = services.ledger.get(show);
      require(free == 8, "Lost update: ada (node A) and bob (node B) were both told yes, but the ledger went from 10 "
          + "to " + free + " free seats, not 8. " + race + ". Both nodes read 10 and both wrote 9. "
          + (race.readDuringWrite ? READ_DURING_WRITE : "Hold a cluster-wide lock (vertx.sharedData().withLock) from "
          + "the read to the write, so that the other node reads after."));
    });
  }

  @Test
  @Order(8)
  @Points(4)
  @DisplayName("part two, a sold-out answer and a failed ledger read each let the other node in: no cluster lock "
      + "leak")
  void clusterLockIsReleasedOnEveryPath() {
    Nodes nodes = clusterNodes.get();
    services.readsAnsweredAtOnce = false;
    services.writesAppliedAtOnce = true;
    GatedDependency<LedgerRead, Integer> reads = new GatedDependency<>();
    services.heldReads = reads;
    String soldOut = services.newLedgerShow(0);
    CompletableFuture<String> ada = reservations.reserve(nodes.a(), soldOut, "ada");
    if (!callOrAnswer(reads, 1, ada, WAIT.toMillis(), "ada's reservation on node A never made its ledger read "
        + "(waited " + WAIT.toSeconds() + " s), although nobody else was reserving."
        + reservations.whatCameBefore())) {
      throw new AssertionFailedError("ada's reservation on node A answered " + reservations.answerOf(ada)
          + " without reading the ledger." + reservations.whatCameBefore());
    }
    open(reads.awaitCalls(1).get(0));
    Outcome<Boolean> adaGot = reservations.answerOf(ada);
    require(Outcome.of(false).equals(adaGot), "ada (node A) should hear false for a sold-out show, but got "
        + adaGot + ".");
    CompletableFuture<String> bob = reservations.reserve(nodes.b(), soldOut, "bob");
    require(reads.arrivesWithin(2, STUCK_MILLIS), "Cluster lock leak: after node A answered 'sold out', node B "
        + "waited " + STUCK_MILLIS + " ms and never got to read the ledger. The lock node A took was not released on "
        + "that path, and every node now waits for it until its timeout. Let go of the lock on every way out (withLock "
        + "does it for you when the block's future completes).");
    open(reads.awaitCalls(2).get(1));
    reservations.answerOf(bob);

    String show = services.newLedgerShow(5);
    CompletableFuture<String> cyd = reservations.reserve(nodes.a(), show, "cyd");
    reads.awaitCalls(3, WAIT.toMillis()).get(2).fail(new IllegalStateException("the ledger service is down"));
    Outcome<Boolean> cydGot = reservations.answerOf(cyd);
    require(cydGot.error() != null || Outcome.of(false).equals(cydGot), "cyd (node A) should get a failure when "
        + "the ledger cannot be read, but got " + cydGot + ".");
    CompletableFuture<String> dan = reservations.reserve(nodes.b(), show, "dan");
    require(reads.arrivesWithin(4, STUCK_MILLIS), "Cluster lock leak: after node A's ledger read failed, node B "
        + "waited " + STUCK_MILLIS + " ms and never got to read the ledger. A failure is a way out too: the lock must "
        + "be released when the read fails (withLock releases it whatever the block's future does).");
    open(reads.awaitCalls(4).get(3));
    Outcome<Boolean> danGot = reservations.answerOf(dan);
    require(Outcome.of(true).equals(danGot), "dan (node B) should get one of 5 free seats, but got " + danGot);
    assertLedger(show, 4, "a failed read took no seat and dan took one of 5");
  }

  @Test
  @Order(9)
  @Points(3)
  @DisplayName("part two, both cluster nodes shut down cleanly: they leave the cluster, close Vert.x and exit")
  void clusterNodesShutDownCleanly() {
    Nodes nodes = clusterNodes.handOver();
    ShutdownCheck.assertNodesShutDown(QUIT, List.of(nodes.a(), nodes.b()));
  }

  private static void assertLedger(String show, int expected, String what) {
    int free = services.ledger.get(show);
    require(free == expected, "After " + what + ", the ledger should say " + expected + " free seats, but it says "
        + free + ".");
  }
}
