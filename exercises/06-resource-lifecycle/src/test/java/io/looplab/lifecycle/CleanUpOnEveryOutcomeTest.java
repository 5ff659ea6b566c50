package io.looplab.lifecycle;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Outcome;
import io.looplab.grader.Points;
import io.looplab.grader.sync.Gate;
import io.looplab.grader.testkit.WarmUp;
import io.looplab.lifecycle.ReportScene.Call;
import io.looplab.pool.PoolExhaustedException;
import io.vertx.core.Vertx;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static io.looplab.grader.testkit.Checks.require;
import static io.looplab.lifecycle.DatabaseTrouble.LINK_BROKEN;
import static io.looplab.lifecycle.DatabaseTrouble.LOCKED;
import static io.looplab.lifecycle.ReportScene.NO_DEADLINE;
import static io.looplab.lifecycle.ReportScene.WAIT;

/**
 * Grades the three ways a query can end on its own (an answer, a failed future, an exception thrown instead), and a
 * pool of two that must serve three failures in a row: after each one, every connection is back, given back once.
 * The test's database answers nothing by itself; the test answers each query when it chooses.
 */
@GradedVertxTest
@Order(1)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@DisplayName("06 Resource lifecycle: the connection goes back whatever the query answers")
class CleanUpOnEveryOutcomeTest {

  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(SceneWarmUp::steps);
  }

  @Test
  @Order(1)
  @Points(3)
  @DisplayName("two reports running side by side each answer their own text and give their own connection back")
  void aReportGivesItsConnectionBack(Vertx vertx) {
    ReportScene scene = new ReportScene(vertx, 2, NO_DEADLINE);
    Call ada = scene.report("ada");
    Gate<String> adaQuery = scene.awaitQuery(1, ada);
    Call bob = scene.report("bob");
    Gate<String> bobQuery = scene.awaitQuery(2, bob);

    // bob's query answers first: each report must close the connection it borrowed, not the latest one.
    bobQuery.open("bob's report: 3 rows");
    require(bob.outcome(WAIT, "after his query answered").equals(Outcome.of("bob's report: 3 rows")),
        "bob's query answered \"bob's report: 3 rows\", but report(\"bob\") answered " + bob.outcomeNow()
            + ". The report's answer is the query's answer, unchanged.");
    scene.assertEachGivenBackOnce("after bob's report answered, while ada's still ran");
    adaQuery.open("ada's report: 7 rows");
    require(ada.outcome(WAIT, "after her query answered").equals(Outcome.of("ada's report: 7 rows")),
        "ada's query answered \"ada's report: 7 rows\", but report(\"ada\") answered " + ada.outcomeNow() + ".");
    scene.assertEveryConnectionBack("after two reports that both succeeded (bob's answered first)");
    scene.assertNoDeadlineLeft("after two reports that both succeeded (bob's answered first)");
  }

  @Test
  @Order(2)
  @Points(2)
  @DisplayName("a query that fails makes the report fail with the database's own error, and its connection goes "
      + "back")
  void aFailedQueryGivesItsConnectionBack(Vertx vertx) {
    ReportScene scene = new ReportScene(vertx, 2, NO_DEADLINE);
    Call ada = scene.report("ada");
    scene.awaitQuery(1, ada).fail(new DatabaseTrouble(LOCKED));
    Outcome<String> heard = ada.outcome(WAIT, "after her query failed");
    require(heard.isFailure() && DatabaseTrouble.is(heard.error(), LOCKED), "ada's query failed with \"" + LOCKED
        + "\", so report(\"ada\") should fail with that error, but it answered " + heard + ". A clean-up step must "
        + "pass the outcome on unchanged: eventually does, a recover or a transform that answers success does not.");
    scene.assertEveryConnectionBack("after a query that failed (a failed future)");
    scene.assertNoDeadlineLeft("after a query that failed (a failed future)");
  }

  @Test
  @Order(3)
  @Points(2)
  @DisplayName("a connection whose query throws instead of failing its future: the report fails with that error, and "
      + "the connection goes back")
  void aQueryThatThrowsGivesItsConnectionBack(Vertx vertx) {
    ReportScene scene = new ReportScene(vertx, 2, NO_DEADLINE);
    scene.pool.throwOnNextQuery(new DatabaseTrouble(LINK_BROKEN));
    Call ada = scene.report("ada");
    Outcome<String> heard = ada.outcome(WAIT, "after her connection's query threw " + LINK_BROKEN);
    require(heard.isFailure() && DatabaseTrouble.is(heard.error(), LINK_BROKEN), "ada's connection threw \""
        + LINK_BROKEN + "\" from query() instead of returning a future, so report(\"ada\") should fail with that "
        + "error, but it answered " + heard + ".");
    scene.assertEveryConnectionBack("after a query that threw instead of returning a future"
        + scene.pool.thrownThrough.inWords() + " (nothing can be chained "
        + "on a future that was never returned: catch the throw around the use, or build the use with Future.future, "
        + "which turns a throw into a failed future)");
    scene.assertNoDeadlineLeft("after a query that threw instead of returning a future (a step chained on the "
        + "query's future never runs when query() throws)");
  }

  @Test
  @Order(4)
  @Points(3)
  @DisplayName("a pool of 2 serves 3 failed reports in a row, and a good report after them: no failure keeps its "
      + "connection")
  void aPoolOfTwoServesThreeFailuresInARow(Vertx vertx) {
    ReportScene scene = new ReportScene(vertx, 2, NO_DEADLINE);
    // Three failures in a row, one more than the pool has connections: a failed future, a query that throws, and a
    // failed future again. A service that keeps the connection of a failed report has none left for the third.
    String[] callers = {"ada", "bob", "cyd"};
    int queries = 0;
    for (int i = 0; i < callers.length; i++) {
      String who = callers[i];
      boolean throwing = i == 1;
      if (throwing) {
        scene.pool.throwOnNextQuery(new DatabaseTrouble(LINK_BROKEN));
      }
      Call call = scene.report(who);
      if (!throwing) {
        queries++;
        scene.awaitQueryOrAnswer(queries, call).ifPresent(query -> query.fail(new DatabaseTrouble(LOCKED)));
      }
      Outcome<String> heard = call.outcome(WAIT, "after its query failed");
      require(!(heard.isFailure() && heard.error() instanceof PoolExhaustedException), "The pool of 2 ran dry after "
          + i + " failed report(s): report(\"" + who + "\"), failed report number " + (i + 1) + " of 3 in a row, "
          + "found no free connection and failed with " + heard.error() + ". Each failure kept the connection it "
          + "borrowed, so the pool has fewer connections after every failure, until it refuses everyone. Give "
          + "the connection back on the failure paths too: a failed future, and a query that throws.");
      String error = throwing ? LINK_BROKEN : LOCKED;
      require(heard.isFailure() && DatabaseTrouble.is(heard.error(), error), "report(\"" + who + "\") should fail "
          + "with its query's error \"" + error + "\", but it answered " + heard + ".");
    }
    Call dan = scene.report("dan");
    scene.awaitQuery(queries + 1, dan).open("dan's report: 1 row");
    require(dan.outcome(WAIT, "after his query answered").equals(Outcome.of("dan's report: 1 row")),
        "After three failures, report(\"dan\") should answer his report, but it answered " + dan.outcomeNow() + ".");
    scene.assertEveryConnectionBack("after three failed reports in a row and a good one");
    scene.assertNoDeadlineLeft("after three failed reports in a row and a good one");
  }

  @Test
  @Order(5)
  @Points(2)
  @DisplayName("a pool with no connection free refuses: the report fails with the pool's own PoolExhaustedException, "
      + "borrows nothing and leaves no deadline behind")
  void aRefusedBorrowFailsWithThePoolsError(Vertx vertx) {
    ReportScene scene = new ReportScene(vertx, 1, NO_DEADLINE);
    Call ada = scene.report("ada");
    Gate<String> adaQuery = scene.awaitQuery(1, ada);

    // ada holds the pool's only connection: the pool refuses bob at once, with a PoolExhaustedException.
    Call bob = scene.report("bob");
    Outcome<String> heard = bob.outcome(ReportScene.AT_ONCE, "after the pool refused him a connection ("
        + String.join("; ", scene.pool.refusals()) + "): acquire() failed with a PoolExhaustedException, and "
        + "nothing passed that failure on to the caller. A failed borrow is one more way out: chain on the "
        + "acquire's future with compose (which passes a failure on), or listen to its failure too");
    require(scene.pool.refusals().size() == 1, "report(\"bob\") was asked while ada's report held the pool's only "
        + "connection, and the pool refused " + scene.pool.refusals().size() + " acquire(s) instead of 1: "
        + scene.pool.refusals() + ". One report borrows once.");
    require(heard.isFailure() && heard.error() instanceof PoolExhaustedException
        && String.valueOf(heard.error().getMessage()).equals(scene.pool.refusals().get(0)), "The pool refused "
        + "report(\"bob\") a connection with PoolExhaustedException: " + scene.pool.refusals().get(0) + "; "
        + "report(\"bob\") answered " + heard + ". The report fails with the pool's own error, unchanged: it "
        + "tells the caller the pool is out of connections, which no other error does.");

    // ada's report goes on and ends well; the pool's connection was never bob's to give back.
    adaQuery.open("ada's report: 5 rows");
    require(ada.outcome(WAIT, "after her query answered").equals(Outcome.of("ada's report: 5 rows")),
        "report(\"ada\") should answer her report, but it answered " + ada.outcomeNow() + ".");
    scene.assertEveryConnectionBack("after a report the pool refused (bob's) and one that succeeded (ada's)");
    scene.assertNoDeadlineLeft("after a report the pool refused (bob's, which never had a connection, so never "
        + "a query to time) and one that succeeded (ada's)");
    Call cyd = scene.report("cyd");
    scene.awaitQuery(2, cyd).open("cyd's report: 9 rows");
    require(cyd.outcome(WAIT, "after her query answered").equals(Outcome.of("cyd's report: 9 rows")),
        "After the pool had refused bob, report(\"cyd\") should answer her report, but it answered "
            + cyd.outcomeNow() + ".");
    scene.assertEveryConnectionBack("after a refused report and two that succeeded");
  }
}
