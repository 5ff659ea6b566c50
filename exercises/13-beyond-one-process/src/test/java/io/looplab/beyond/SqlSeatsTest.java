package io.looplab.beyond;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Outcome;
import io.looplab.grader.Points;
import io.looplab.grader.leaks.ShutdownCheck;
import io.looplab.grader.sync.EveryOrder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static io.looplab.beyond.Limits.QUIT;
import static io.looplab.grader.testkit.Checks.require;

/**
 * Part one: grades SqlSeats with two real processes. The test starts two node JVMs ({@link SeatNode}) that run
 * your code against one database, and tells each when to reserve. Both reach the test over HTTP on 127.0.0.1 for
 * the availability check ({@link Services}), and the test holds those calls: it decides which node's check answers
 * first, as in exercise 09, only across processes now ({@link Races}). It judges only what callers were told and
 * what the table ends at.
 */
@GradedVertxTest
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@Order(1)
@DisplayName("13 Beyond one process: part one, two JVMs reserve the same seats through a database")
class SqlSeatsTest {

  private static Services services;
  private static final Reservations reservations = new Reservations();
  private static Races races;
  private static Database db;
  private static final NodePair sqlNodes = new NodePair(() -> {
    db = db == null ? Database.start() : db;
    return NodePair.startPair(
        () -> SeatNode.launchSql("node A", db.url, db.user, db.password, services.port()),
        () -> SeatNode.launchSql("node B", db.url, db.user, db.password, services.port()), false);
  });

  @BeforeAll
  static void startTheTestsServices() {
    services = Services.start();
    races = new Races(services, reservations);
  }

  @AfterAll
  static void stopEverything() {
    sqlNodes.close();
    if (db != null) {
      db.close();
    }
    if (services != null) {
      services.close();
    }
  }

  @Test
  @Order(1)
  @Points(2)
  @DisplayName("part one, one process at a time: a yes takes one seat from the table, a no takes none, and a "
      + "sold-out show answers false")
  void sqlOneAtATime() {
    Nodes nodes = sqlNodes.get();
    services.checksAnsweredAtOnce = Map.of("ada", true, "bob", false, "cyd", true);
    String show = db.newShow(2);

    reservations.expect(nodes.a(), show, "ada", Outcome.of(true), "her check said yes and 2 seats were free");
    assertTable(show, 1, "ada took one of 2 seats");
    reservations.expect(nodes.a(), show, "bob", Outcome.of(false), "his check said no");
    assertTable(show, 1, "bob's check said no, so his reservation must not take a seat");

    String soldOut = db.newShow(0);
    reservations.expect(nodes.a(), soldOut, "cyd", Outcome.of(false), "the show had no free seat");
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
      Race race = races.checkRace(nodes, show, order);

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
      Race race = races.checkRace(nodes, show, order);

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
    ShutdownCheck.assertNodesShutDown(QUIT, List.of(nodes.a(), nodes.b()));
  }

  private static void assertTable(String show, int expected, String what) {
    int free = db.free(show);
    require(free == expected, "After " + what + ", the table should say " + expected + " free seats, but it says "
        + free + ".");
  }
}
