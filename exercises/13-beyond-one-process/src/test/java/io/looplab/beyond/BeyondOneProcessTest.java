package io.looplab.beyond;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Outcome;
import io.looplab.grader.Points;
import io.looplab.grader.leaks.ShutdownCheck;
import io.looplab.grader.nodes.NodeProcess;
import io.looplab.grader.sync.EveryOrder;
import io.looplab.grader.sync.Gate;
import io.looplab.grader.sync.GatedDependency;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import org.h2.tools.Server;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;
import org.opentest4j.AssertionFailedError;

import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Grades SqlSeats and ClusterSeats with two real processes: the test starts two node JVMs ({@link SeatNode}) that
 * run your code, and tells each when to reserve. Both reach the test over HTTP on 127.0.0.1 for the availability
 * check (part one) or the ledger (part two), and the test holds those calls: it decides which node's call answers
 * first, as in exercise 09, only across processes now.
 *
 * <p>Whether the second node reaches its call while the first one's is held depends on your design. With an atomic
 * update it does, and with a lock or a transaction it waits its turn. Both are right; the test accepts either, and
 * judges only what callers were told and what the count ends at. To tell "waits its turn" from "slow", it gives the
 * second node {@link #TURN_MILLIS}: only a design that serialises the nodes pays that wait.
 */
@GradedVertxTest
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@DisplayName("13 Beyond one process: two JVMs reserve the same seats, through a database and through a cluster lock")
class BeyondOneProcessTest {

  /** How long the test waits for what correct code does at once: a call to the test, an answer. */
  private static final Duration WAIT = Duration.ofSeconds(15);

  /**
   * How long the second node may take to reach its check (or read) while the first node's is held, before the test
   * decides it is waiting for its turn. Measured: an unserialised node got there in 0 to 27 ms (load 2).
   */
  private static final long TURN_MILLIS = 1_000;

  /**
   * How long a node may stay silent after the other node answered before the test calls it stuck (waiting for a
   * lock that nobody will release). A correct solution moves on at once, so only a broken one waits this out.
   */
  private static final long STUCK_MILLIS = 3_000;

  private static final Duration QUIT = Duration.ofSeconds(30);

  private static final String READ_DURING_WRITE = "The nodes did take turns for the read: node B read only after "
      + "node A's read was answered, but while node A's write was still on its way, so node B read the count from "
      + "before that write. The critical section ended before the write: the lock was let go once the read "
      + "answered. Hold it until the write's future completes (release it in a callback on the whole reservation's "
      + "future, as withLock does), so that the next node reads what the last one wrote.";

  private static Vertx services;
  private static int servicePort;
  private static Database db;
  private static final NodePair sqlNodes = new NodePair(() -> {
    db = db == null ? Database.start() : db;
    return startPair(() -> SeatNode.launchSql("node A", db.url, db.user, db.password, servicePort),
        () -> SeatNode.launchSql("node B", db.url, db.user, db.password, servicePort), false);
  });
  private static final NodePair clusterNodes = new NodePair(() -> {
    String cluster = "looplab-" + UUID.randomUUID();
    int portA = freePort();
    int portB = freePort();
    return startPair(() -> SeatNode.launchCluster("node A", cluster, portA, portB, servicePort),
        () -> SeatNode.launchCluster("node B", cluster, portB, portA, servicePort), true);
  });

  /** Part one: the availability check every node calls. Per person: answered at once, or held for the test. */
  private static volatile Map<String, Boolean> checksAnsweredAtOnce = Map.of();
  private static volatile GatedDependency<String, Boolean> heldChecks = new GatedDependency<>();

  /** Part two: the ledger, and its reads: answered at once, or held for the test. */
  private static final Map<String, Integer> ledger = new ConcurrentHashMap<>();
  private static volatile boolean readsAnsweredAtOnce = true;
  private static volatile GatedDependency<LedgerRead, Integer> heldReads = new GatedDependency<>();

  /**
   * A ledger read the test holds: the value is taken when the read arrives, as a real service would, and only the
   * answer is late. So a node whose read was held still gets the count as it was before the other node wrote.
   */
  private record LedgerRead(String show, int free) {
  }

  /**
   * Part two: ledger writes, applied at once, or held for the test and applied when it releases them. A race holds
   * the writes as it holds the reads, so that a node that lets go of the lock after its read but before its write is
   * seen: the other node reads while the write is still held.
   */
  private static volatile boolean writesAppliedAtOnce = true;
  private static volatile GatedDependency<LedgerWrite, Void> heldWrites = new GatedDependency<>();

  /** A ledger write the test holds: it lands when the test releases it. */
  private record LedgerWrite(String show, int free) {
  }

  private static final AtomicInteger shows = new AtomicInteger();

  @BeforeAll
  static void startTheTestsServices() throws Exception {
    services = Vertx.vertx();
    HttpServer server = services.createHttpServer().requestHandler(BeyondOneProcessTest::serve);
    servicePort = server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS)
        .actualPort();
  }

  @AfterAll
  static void stopEverything() throws Exception {
    sqlNodes.close();
    clusterNodes.close();
    if (db != null) {
      db.close();
    }
    services.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  // ---- Part one: a shared database ---------------------------------------------------------------------------------

  @Test
  @Order(1)
  @Points(2)
  @DisplayName("part one, one process at a time: a yes takes one seat from the table, a no takes none, and a "
      + "sold-out show answers false")
  void sqlOneAtATime() {
    Nodes nodes = sqlNodes.get();
    checksAnsweredAtOnce = Map.of("ada", true, "bob", false, "cyd", true);
    String show = db.newShow(2);

    expect(nodes.a, show, "ada", Outcome.of(true), "her check said yes and 2 seats were free");
    assertTable(show, 1, "ada took one of 2 seats");
    expect(nodes.a, show, "bob", Outcome.of(false), "his check said no");
    assertTable(show, 1, "bob's check said no, so his reservation must not take a seat");

    String soldOut = db.newShow(0);
    expect(nodes.a, soldOut, "cyd", Outcome.of(false), "the show had no free seat");
    assertTable(soldOut, 0, "a show with no free seat");
  }

  @TestFactory
  @Order(2)
  @Points(6)
  @DisplayName("part one, two processes race for the last seat: exactly one caller is told yes, and the table never "
      + "goes below zero, whichever check answers first")
  Stream<DynamicTest> sqlLastSeatIsSoldOnce() {
    return EveryOrder.of(2, order -> {
      Nodes nodes = sqlNodes.get();
      String show = db.newShow(1);
      Race race = checkRace(nodes, show, order);

      int free = db.free(show);
      race.assertNoErrors();
      long yes = race.yesCount();
      require(free >= 0, "Below zero: the table says " + free + " free seats for '" + show + "'. " + race
          + ". A decrement that does not ask 'is a seat left?' in the same statement takes seats that are not there: "
          + "put the condition in the UPDATE's WHERE, and count the rows it changed.");
      require(yes == 1, yes == 2
          ? "Overbooked: ada on node A and bob on node B were both told they have the last seat, and the table went "
              + "from 1 free seat to " + free + ". " + race + ". "
              + "Either each process decided from a count it read before its check (a local lock lives in one "
              + "JVM, and the other process never saw it), or the code did not look at how many rows its UPDATE "
              + "changed. Let the database decide: UPDATE ... SET free = free - 1 WHERE ... AND free > 0, and a "
              + "caller has a seat only if that changed one row."
          : "Nobody got the last seat: one of ada (node A) and bob (node B) should have. " + race + ".");
      require(free == 0, "The table ends at " + free + " free seats, but one caller was told yes out of 1 free seat: "
          + "it must end at 0. " + race + ".");
    });
  }

  @TestFactory
  @Order(3)
  @Points(4)
  @DisplayName("part one, two processes reserve at once with 10 seats free: both get a seat and the table ends at 8, "
      + "whichever check answers first")
  Stream<DynamicTest> sqlNoUpdateIsLost() {
    return EveryOrder.of(2, order -> {
      Nodes nodes = sqlNodes.get();
      String show = db.newShow(10);
      Race race = checkRace(nodes, show, order);

      race.assertNoErrors();
      require(race.yesCount() == 2, "Both callers should get a seat out of 10 free, but: " + race + ".");
      int free = db.free(show);
      require(free == 8, "Lost update: ada (node A) and bob (node B) were both told yes, but the table went from 10 to "
          + free + " free seats, not 8. " + race + ". Each process read 10, awaited its check, and wrote 10 - 1: "
          + "the second write overwrote the first. A lock in one JVM cannot stop a write from another; an UPDATE that "
          + "computes free - 1 inside the database can.");
    });
  }

  @Test
  @Order(4)
  @Points(3)
  @DisplayName("part one, both processes shut down cleanly: no local lock held, Vert.x closed, process gone")
  void sqlNodesShutDownCleanly() {
    Nodes nodes = sqlNodes.handOver();
    ShutdownCheck.assertNodesShutDown(QUIT, List.of(nodes.a, nodes.b));
  }

  // ---- Part two: a cluster lock ------------------------------------------------------------------------------------

  @Test
  @Order(5)
  @Points(2)
  @DisplayName("part two, one cluster node at a time: a free seat is taken from the ledger, and a sold-out show "
      + "answers false")
  void clusterOneAtATime() {
    Nodes nodes = clusterNodes.get();
    readsAnsweredAtOnce = true;
    writesAppliedAtOnce = true;
    String show = newLedgerShow(2);
    expect(nodes.a, show, "ada", Outcome.of(true), "2 seats were free");
    assertLedger(show, 1, "ada took one of 2 seats");
    String soldOut = newLedgerShow(0);
    expect(nodes.b, soldOut, "bob", Outcome.of(false), "the show had no free seat");
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
      String show = newLedgerShow(1);
      Race race = readRace(nodes, show, order);

      race.assertNoErrors();
      int free = ledger.get(show);
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
      String show = newLedgerShow(10);
      Race race = readRace(nodes, show, order);

      race.assertNoErrors();
      require(race.yesCount() == 2, "Both callers should get a seat out of 10 free, but: " + race + ".");
      int free = ledger.get(show);
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
    readsAnsweredAtOnce = false;
    writesAppliedAtOnce = true;
    heldReads = new GatedDependency<>();
    String soldOut = newLedgerShow(0);
    CompletableFuture<String> ada = reserve(nodes.a, soldOut, "ada");
    if (!callOrAnswer(heldReads, 1, ada, WAIT.toMillis(), "ada's reservation on node A never made its ledger read "
        + "(waited " + WAIT.toSeconds() + " s), although nobody else was reserving." + whatCameBefore())) {
      throw new AssertionFailedError("ada's reservation on node A answered " + answerOf(ada) + " without reading "
          + "the ledger." + whatCameBefore());
    }
    open(heldReads.awaitCalls(1).get(0));
    Outcome<Boolean> adaGot = answerOf(ada);
    require(Outcome.of(false).equals(adaGot), "ada (node A) should hear false for a sold-out show, but got "
        + adaGot + ".");
    CompletableFuture<String> bob = reserve(nodes.b, soldOut, "bob");
    require(heldReads.arrivesWithin(2, STUCK_MILLIS), "Cluster lock leak: after node A answered 'sold out', node B "
        + "waited " + STUCK_MILLIS + " ms and never got to read the ledger. The lock node A took was not released on "
        + "that path, and every node now waits for it until its timeout. Let go of the lock on every way out (withLock "
        + "does it for you when the block's future completes).");
    open(heldReads.awaitCalls(2).get(1));
    answerOf(bob);

    String show = newLedgerShow(5);
    CompletableFuture<String> cyd = reserve(nodes.a, show, "cyd");
    heldReads.awaitCalls(3, WAIT.toMillis()).get(2).fail(new IllegalStateException("the ledger service is down"));
    Outcome<Boolean> cydGot = answerOf(cyd);
    require(cydGot.error() != null || Outcome.of(false).equals(cydGot), "cyd (node A) should get a failure when "
        + "the ledger cannot be read, but got " + cydGot + ".");
    CompletableFuture<String> dan = reserve(nodes.b, show, "dan");
    require(heldReads.arrivesWithin(4, STUCK_MILLIS), "Cluster lock leak: after node A's ledger read failed, node B "
        + "waited " + STUCK_MILLIS + " ms and never got to read the ledger. A failure is a way out too: the lock must "
        + "be released when the read fails (withLock releases it whatever the block's future does).");
    open(heldReads.awaitCalls(4).get(3));
    Outcome<Boolean> danGot = answerOf(dan);
    require(Outcome.of(true).equals(danGot), "dan (node B) should get one of 5 free seats, but got " + danGot);
    assertLedger(show, 4, "a failed read took no seat and dan took one of 5");
  }

  @Test
  @Order(9)
  @Points(3)
  @DisplayName("part two, both cluster nodes shut down cleanly: they leave the cluster, close Vert.x and exit")
  void clusterNodesShutDownCleanly() {
    Nodes nodes = clusterNodes.handOver();
    ShutdownCheck.assertNodesShutDown(QUIT, List.of(nodes.a, nodes.b));
  }

  // ---- The race both parts run ---------------------------------------------------------------------------------------

  /** What happened when node A (ada) and then node B (bob) reserved one seat of the same show. */
  private static final class Race {
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

  /**
   * Node A reserves, and its call to the test is held. Then node B reserves. If B's call arrives too, both are
   * released in {@code order}; if B is waiting its turn, A's is released first and B's once it comes. When
   * {@code writes} is given (the ledger), writes are held too: after A's call is released, A's write waits while the
   * test looks whether B's call comes meanwhile, which it must not while A still holds the lock.
   */
  private static <A, T> Race race(Nodes nodes, String show, int[] order, GatedDependency<A, T> calls, String call,
      Function<A, T> answer, GatedDependency<LedgerWrite, Void> writes) {
    CompletableFuture<String> ada = reserve(nodes.a, show, "ada");
    awaitCall(calls, 1, ada, "ada's (node A)", call, WAIT.toMillis(), "ada's reservation on node A never made its "
        + call + " (waited " + WAIT.toSeconds() + " s), although nobody else was reserving." + whatCameBefore());
    CompletableFuture<String> bob = reserve(nodes.b, show, "bob");
    boolean overlapped = calls.arrivesWithin(2, TURN_MILLIS);
    boolean readDuringWrite = false;
    String releases;
    if (overlapped) {
      List<Gate<T>> gates = calls.awaitCalls(2);
      List<CompletableFuture<String>> answers = List.of(ada, bob);
      for (int i : order) {
        open(gates.get(i), answer);
        finish(answers.get(i), writes);
      }
      releases = "both " + call + "s were in flight at once, and the test answered " + (order[0] == 0
          ? "node A's first" : "node B's first");
    } else {
      open(calls.awaitCalls(1).get(0), answer);
      if (writes != null && writeOrAnswer(writes, 1, ada)) {
        // A has read, and its write is held: B must still be waiting for the lock.
        readDuringWrite = calls.arrivesWithin(2, TURN_MILLIS);
        if (readDuringWrite) {
          open(calls.awaitCalls(2).get(1), answer);      // B gets the count as it was before A's write
          writes.awaitCalls(1).get(0).open(null);         // then A's write lands
          finish(ada, writes);
          finish(bob, writes);
          return new Race(answerOf(ada), answerOf(bob), false, true, "node B made its " + call + " while node "
              + "A's write was still held by the test, after node A's " + call + " had been answered");
        }
        writes.awaitCalls(1).get(0).open(null);
      }
      finish(ada, writes);
      // Now that A has answered, B may make its call, or find the show sold out and answer without one.
      boolean called = callOrAnswer(calls, 2, bob, STUCK_MILLIS, "bob's reservation on node B neither made its "
          + call + " nor answered, even " + STUCK_MILLIS + " ms after ada's on node A was answered with "
          + answerOf(ada) + ". Is node B waiting for a lock that node A never released?");
      if (called) {
        open(calls.awaitCalls(2).get(1), answer);
      }
      finish(bob, writes);
      releases = "node B waited for node A to finish before it " + (called ? "made its " + call
          : "answered, without a " + call);
    }
    return new Race(answerOf(ada), answerOf(bob), overlapped, readDuringWrite, releases);
  }

  /**
   * Waits until write number {@code n} arrives (true) or {@code reservation} answers without it (false), within
   * {@link #WAIT}; a reservation that does neither is left to {@link #answerOf} to report.
   */
  private static boolean writeOrAnswer(GatedDependency<LedgerWrite, Void> writes, int n,
      CompletableFuture<String> reservation) {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!writes.arrivesWithin(n, 20)) {
      if (reservation.isDone() || System.nanoTime() > deadline) {
        return writes.calls() >= n;
      }
    }
    return true;
  }

  /** Lets {@code reservation} finish: releases each held ledger write as it comes, until the node answers. */
  private static void finish(CompletableFuture<String> reservation, GatedDependency<LedgerWrite, Void> writes) {
    if (writes == null) {
      answerOf(reservation);
      return;
    }
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!reservation.isDone() && System.nanoTime() < deadline) {
      writes.calledSoFar().stream().filter(Gate::isPending).forEach(gate -> gate.open(null));
      writes.arrivesWithin(writes.calls() + 1, 20);
    }
    answerOf(reservation);
  }

  /** Waits for node A's first call, which it must make: a seat is free, and nobody else is booking. */
  private static void awaitCall(GatedDependency<?, ?> calls, int n, CompletableFuture<String> reservation,
      String whose, String call, long millis, String ifNever) {
    if (!callOrAnswer(calls, n, reservation, millis, ifNever)) {
      throw new AssertionFailedError(whose + " reservation answered " + answerOf(reservation) + " without making "
          + "its " + call + ", although a seat was free." + whatCameBefore());
    }
  }

  /**
   * Waits up to {@code millis} until call number {@code n} arrives (true) or {@code reservation} answers without it
   * (false); fails with {@code ifNeither} when neither happens.
   */
  private static boolean callOrAnswer(GatedDependency<?, ?> calls, int n, CompletableFuture<String> reservation,
      long millis, String ifNeither) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    // Short rounds, so that a reservation that answers without making its call is seen at once.
    while (!calls.arrivesWithin(n, 20)) {
      if (reservation.isDone()) {
        return calls.calls() >= n;
      }
      require(System.nanoTime() < deadline, ifNeither);
    }
    return true;
  }

  /** Answers a held call with what the test's service had for it when the call arrived. */
  @SuppressWarnings("unchecked")
  private static <A, T> void open(Gate<T> gate, Function<A, T> answer) {
    gate.open(answer.apply((A) gate.argument()));
  }

  private static void open(Gate<Integer> read) {
    open(read, LedgerRead::free);
  }

  private static Race checkRace(Nodes nodes, String show, int[] order) {
    checksAnsweredAtOnce = Map.of();
    heldChecks = new GatedDependency<>();
    return race(nodes, show, order, heldChecks, "availability check", who -> true, null);
  }

  private static Race readRace(Nodes nodes, String show, int[] order) {
    readsAnsweredAtOnce = false;
    heldReads = new GatedDependency<>();
    writesAppliedAtOnce = false;
    heldWrites = new GatedDependency<>();
    try {
      return race(nodes, show, order, heldReads, "ledger read", LedgerRead::free, heldWrites);
    } finally {
      writesAppliedAtOnce = true;
      heldWrites.calledSoFar().stream().filter(Gate::isPending).forEach(gate -> gate.open(null));
    }
  }

  // ---- The nodes ---------------------------------------------------------------------------------------------------

  /** Node A and node B, started together. */
  private record Nodes(NodeProcess a, NodeProcess b) implements AutoCloseable {
    @Override
    public void close() {
      a.close();
      b.close();
    }
  }

  /** Node A and node B of one part, started on first use. A start that failed fails every later test at once. */
  private static final class NodePair {
    private final Supplier<Nodes> start;
    private Nodes nodes;
    private AssertionFailedError startFailure;

    NodePair(Supplier<Nodes> start) {
      this.start = start;
    }

    Nodes get() {
      if (startFailure != null) {
        throw startFailure;
      }
      if (nodes == null) {
        try {
          nodes = start.get();
        } catch (AssertionFailedError e) {
          startFailure = e;
          throw e;
        }
      }
      return nodes;
    }

    /** The running nodes, for a test that shuts them down itself; this pair forgets them. */
    Nodes handOver() {
      Nodes running = get();
      nodes = null;
      return running;
    }

    void close() {
      if (nodes != null) {
        nodes.close();
      }
    }
  }

  private static Nodes startPair(Supplier<NodeProcess> a, Supplier<NodeProcess> b, boolean cluster) {
    NodeProcess nodeA = a.get();
    NodeProcess nodeB = b.get();
    try {
      return new Nodes(nodeA.awaitReady(SeatNode.startTimeout(cluster)), nodeB.awaitReady(SeatNode.startTimeout(cluster)));
    } catch (RuntimeException | Error e) {
      nodeA.close();
      nodeB.close();
      throw e;
    }
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (java.io.IOException e) {
      throw new IllegalStateException("no free port on this machine", e);
    }
  }

  // ---- The test's HTTP services: the availability check and the ledger ------------------------------------------------

  private static void serve(HttpServerRequest request) {
    String path = request.path();
    if (path.equals("/ping")) {
      request.response().end("pong");
    } else if (path.equals("/check")) {
      String who = request.getParam("who");
      Boolean atOnce = checksAnsweredAtOnce.get(who);
      reply(request, atOnce != null ? Future.succeededFuture(atOnce) : heldChecks.apply(who));
    } else if (path.startsWith("/ledger/") && request.method().name().equals("PUT")) {
      String show = path.substring("/ledger/".length());
      request.body().onSuccess(body -> {
        int free = Integer.parseInt(body.toString().trim());
        Future<Void> landed = writesAppliedAtOnce ? Future.succeededFuture() : heldWrites.apply(new LedgerWrite(show,
            free));
        landed.onComplete(done -> {
          if (done.succeeded()) {
            ledger.put(show, free);
            request.response().end();
          } else {
            request.response().setStatusCode(503).end(done.cause().getMessage());
          }
        });
      });
    } else if (path.startsWith("/ledger/")) {
      String show = path.substring("/ledger/".length());
      int free = ledger.get(show);
      reply(request, readsAnsweredAtOnce ? Future.succeededFuture(free) : heldReads.apply(new LedgerRead(show, free)));
    } else {
      request.response().setStatusCode(404).end("no such service: " + path);
    }
  }

  private static void reply(HttpServerRequest request, Future<?> answer) {
    answer.onComplete(done -> {
      if (done.succeeded()) {
        request.response().end(String.valueOf(done.result()));
      } else {
        request.response().setStatusCode(503).end(done.cause().getMessage());
      }
    });
  }

  private static String newLedgerShow(int free) {
    String show = "show-" + shows.incrementAndGet();
    ledger.put(show, free);
    return show;
  }

  // ---- Assertions ----------------------------------------------------------------------------------------------------

  /** Every reservation the test asked for, with who asked on which node: for messages. */
  private static final Map<CompletableFuture<String>, String> reservations = new ConcurrentHashMap<>();
  private static final Map<CompletableFuture<String>, String> answered = new ConcurrentHashMap<>();
  private static final List<NodeProcess> nodesAsked = new java.util.concurrent.CopyOnWriteArrayList<>();
  /** The reservations answered so far, in the order the test saw their answers: evidence for messages. */
  private record Answered(CompletableFuture<String> answer, String label, Outcome<Boolean> outcome) {
  }

  private static final List<Answered> answeredInOrder = new java.util.concurrent.CopyOnWriteArrayList<>();

  private static CompletableFuture<String> reserve(NodeProcess node, String show, String who) {
    CompletableFuture<String> answer = node.ask("reserve " + show + " " + who);
    reservations.put(answer, who + "'s reservation of " + show + " on " + node.name());
    if (!nodesAsked.contains(node)) {
      nodesAsked.add(node);
    }
    return answer;
  }

  /**
   * What the test can tell about a reservation that does not move: the one answered before it, and the local locks
   * each node holds now. A cluster lock cannot be listed from here, so a refusal just before is named as a lead.
   */
  static String whatCameBefore() {
    StringBuilder text = new StringBuilder();
    int failedSince = 0;
    Answered lastAnswer = null;
    for (int i = answeredInOrder.size() - 1; i >= 0; i--) {
      Answered a = answeredInOrder.get(i);
      if (!a.outcome().isFailure()) {
        lastAnswer = a;
        break;
      }
      failedSince++;
    }
    if (lastAnswer != null) {
      boolean refusal = Outcome.of(false).equals(lastAnswer.outcome());
      text.append(" The last reservation that got an answer other than a failure was ").append(lastAnswer.label())
          .append(", answered ").append(lastAnswer.outcome()).append(refusal ? " (a refusal: if the lock it took "
          + "was not released on that way out, every later reservation that needs that lock waits for it)" : "")
          .append(failedSince > 0 ? "; " + failedSince + " reservation(s) failed after it" : "").append(".");
    }
    for (NodeProcess node : nodesAsked) {
      try {
        String held = node.ask("locks").get(2, TimeUnit.SECONDS);
        if (!held.equals("none")) {
          text.append(" ").append(node.name()).append(" holds the local lock(s) ").append(held).append(".");
        }
      } catch (Exception e) {
        // Only evidence for a message: a node that cannot say is left out.
      }
    }
    return text.toString();
  }

  /** Waits for a node's answer to a reserve command: true, false, or the failure the node reported. */
  private static Outcome<Boolean> answerOf(CompletableFuture<String> answer) {
    String label = reservations.getOrDefault(answer, answered.getOrDefault(answer, "a reservation"));
    try {
      Outcome<Boolean> outcome = Outcome.of(Boolean.parseBoolean(answer.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)));
      noteAnswered(answer, label, outcome);
      return outcome;
    } catch (ExecutionException e) {
      if (e.getCause() instanceof NodeProcess.NodeError error) {
        Outcome<Boolean> outcome = Outcome.failed(error);
        noteAnswered(answer, label, outcome);
        return outcome;
      }
      throw e.getCause() instanceof AssertionFailedError a ? a : new AssertionFailedError(e.getCause().toString());
    } catch (TimeoutException e) {
      throw new AssertionFailedError(capitalised(label) + " did not answer within " + WAIT.toSeconds() + " s."
          + whatCameBefore() + " The usual causes: a lock that is never released on some way out (a refusal, a "
          + "failure), or a future that is never completed.");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Notes the first time the test sees a reservation's answer: the last one noted is the latest to answer. */
  private static void noteAnswered(CompletableFuture<String> answer, String label, Outcome<Boolean> outcome) {
    if (reservations.remove(answer) != null) {
      answeredInOrder.add(new Answered(answer, label, outcome));
      answered.put(answer, label);
    }
  }

  private static String capitalised(String text) {
    return text.isEmpty() ? text : Character.toUpperCase(text.charAt(0)) + text.substring(1);
  }

  private static void expect(NodeProcess node, String show, String who, Outcome<Boolean> expected, String why) {
    Outcome<Boolean> got = answerOf(reserve(node, show, who));
    require(expected.equals(got), who + "'s reservation on " + node.name() + " should answer " + expected + " ("
        + why + "), but it answered " + got + ".");
  }

  private static void assertTable(String show, int expected, String what) {
    int free = db.free(show);
    require(free == expected, "After " + what + ", the table should say " + expected + " free seats, but it says "
        + free + ".");
  }

  private static void assertLedger(String show, int expected, String what) {
    int free = ledger.get(show);
    require(free == expected, "After " + what + ", the ledger should say " + expected + " free seats, but it says "
        + free + ".");
  }

  private static void require(boolean condition, String message) {
    if (!condition) {
      throw new AssertionFailedError(message);
    }
  }

  // ---- The database ------------------------------------------------------------------------------------------------

  /**
   * The database both nodes share. By default an in-memory H2 database that this test serves over TCP on 127.0.0.1
   * (H2's server mode: each node connects to it as a client, so it is one database, not one per process). With
   * LOOPLAB_DB_URL set, the one it names instead, e.g. PostgreSQL (see the README).
   */
  static final class Database implements AutoCloseable {
    final String url;
    final String user;
    final String password;
    private final Server server;

    private Database(String url, String user, String password, Server server) {
      this.url = url;
      this.user = user;
      this.password = password;
      this.server = server;
    }

    static Database start() {
      try {
        String external = System.getenv("LOOPLAB_DB_URL");
        Database db;
        if (external != null && !external.isBlank()) {
          db = new Database(external, env("LOOPLAB_DB_USER"), env("LOOPLAB_DB_PASSWORD"), null);
        } else {
          Server server = Server.createTcpServer("-tcpPort", "0", "-ifNotExists").start();
          db = new Database("jdbc:h2:tcp://127.0.0.1:" + server.getPort() + "/mem:looplab-seats;DB_CLOSE_DELAY=-1;"
              + "LOCK_TIMEOUT=10000", "sa", "", server);
        }
        db.execute("DROP TABLE IF EXISTS seats");
        db.execute("CREATE TABLE seats (show VARCHAR(64) PRIMARY KEY, free INT NOT NULL)");
        return db;
      } catch (SQLException e) {
        throw new AssertionFailedError("The test could not set up its database: " + e.getMessage());
      }
    }

    private static String env(String name) {
      String value = System.getenv(name);
      return value == null ? "" : value;
    }

    String newShow(int free) {
      String show = "show-" + shows.incrementAndGet();
      try (Connection c = connect(); PreparedStatement insert = c.prepareStatement("INSERT INTO seats VALUES (?, ?)")) {
        insert.setString(1, show);
        insert.setInt(2, free);
        insert.executeUpdate();
        return show;
      } catch (SQLException e) {
        throw new AssertionFailedError("The test could not add a show to the table: " + e.getMessage());
      }
    }

    int free(String show) {
      try (Connection c = connect(); PreparedStatement select = c.prepareStatement("SELECT free FROM seats WHERE show = ?")) {
        select.setString(1, show);
        try (ResultSet row = select.executeQuery()) {
          require(row.next(), "The show '" + show + "' is gone from the table: rows must be updated, never deleted.");
          return row.getInt(1);
        }
      } catch (SQLException e) {
        throw new AssertionFailedError("The test could not read the table: " + e.getMessage());
      }
    }

    private void execute(String sql) throws SQLException {
      try (Connection c = connect(); Statement s = c.createStatement()) {
        s.execute(sql);
      }
    }

    private Connection connect() throws SQLException {
      return DriverManager.getConnection(url, user, password);
    }

    @Override
    public void close() {
      if (server != null) {
        server.stop();
      }
    }
  }
}
