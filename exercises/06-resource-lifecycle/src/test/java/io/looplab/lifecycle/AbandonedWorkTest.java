package io.looplab.lifecycle;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Outcome;
import io.looplab.grader.Points;
import io.looplab.grader.sync.Gate;
import io.looplab.grader.testkit.WarmUp;
import io.looplab.lifecycle.ReportScene.Call;
import io.vertx.core.Vertx;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static io.looplab.grader.testkit.Checks.require;
import static io.looplab.lifecycle.ReportScene.NO_DEADLINE;
import static io.looplab.lifecycle.ReportScene.WAIT;

/**
 * Grades the two ways a report ends before its query does: the deadline passes, or the caller gives up. Either way
 * the report answers at once, the connection goes back at once (the pool resets it), and the abandoned query's late
 * answer, which the test delivers afterwards, must not give it back a second time. The deadline here is
 * {@link #DEADLINE}; the test waits for that timer because the deadline is the behaviour under test, never to order
 * anything.
 */
@GradedVertxTest
@Order(2)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@DisplayName("06 Resource lifecycle: a report abandoned by its deadline or its caller gives its connection back once")
class AbandonedWorkTest {

  /** The service's deadline in the timeout test: long beside the guard's 50 ms, short beside the test's waits. */
  static final Duration DEADLINE = Duration.ofMillis(200);
  /** How long the test waits for the deadline to fail a report: the deadline, and a wide margin for a busy machine. */
  static final Duration TIMED_OUT_WITHIN = Duration.ofSeconds(3);

  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(SceneWarmUp::steps);
  }

  @Test
  @Order(1)
  @Points(4)
  @DisplayName("a query that outlives the deadline: the report fails with a TimeoutException, the connection goes "
      + "back at once, and the query's late answer does not give it back again")
  void aReportPastItsDeadlineGivesItsConnectionBackOnce(Vertx vertx) {
    ReportScene scene = new ReportScene(vertx, 1, DEADLINE);
    Call ada = scene.report("ada");
    Gate<String> adaQuery = scene.awaitQuery(1, ada);

    // The test never answers ada's query before the deadline.
    Outcome<String> heard = ada.outcome(TIMED_OUT_WITHIN, "when her query never answered, with a deadline of "
        + DEADLINE.toMillis() + " ms: the caller waits for ever. Give the report a deadline (vertx.setTimer on the "
        + "verticle's event loop, cancelled once the answer is settled)");
    require(heard.isFailure() && isTimeout(heard.error()), "ada's query never answered, and report(\"ada\") "
        + "answered " + heard + " once the deadline of " + DEADLINE.toMillis() + " ms had passed. It should fail "
        + "with a java.util.concurrent.TimeoutException.");
    // A timer never fires before its delay, and the clock starts before report() is called: a correct service's
    // timeout comes DEADLINE or more after this start, however slow the machine.
    require(ada.millisToAnswer() >= DEADLINE.toMillis(), "report(\"ada\") failed with a TimeoutException "
        + ada.millisToAnswer() + " ms after report(\"ada\") was called, before its deadline of " + DEADLINE.toMillis()
        + " ms had passed. The deadline is the time the query may take, counted from the moment the report has its "
        + "connection: use the configured Duration whole, in milliseconds (deadline.toMillis()).");
    require(ada.answeredOnTheServicesLoop(), "The TimeoutException reached the caller of report(\"ada\") on "
        + ada.answeredWhere() + ", not on the service's event loop: whatever the caller chains on the report would run "
        + "there too. Fail the report from a timer of the verticle's own (vertx.setTimer, set on its event loop), or "
        + "with the timeout() of a future that belongs to its context.");
    scene.assertEveryConnectionBack("after ada's report timed out, while her query still ran: the deadline "
        + "answered the caller but left the connection with the abandoned query, which may never end. Put the "
        + "deadline inside the loan, on the use (a timer that fails the answer the clean-up waits for), not on the "
        + "whole report after it");

    // The abandoned query answers late: nothing must change, and nothing be given back twice.
    adaQuery.open("ada's report, too late");
    scene.flush();
    scene.assertEachGivenBackOnce("after ada's report timed out and her abandoned query answered late (the deadline "
        + "gave the connection back, and then the query's late answer did so again)");
    require(ada.outcomeNow().equals(heard), "report(\"ada\") answered twice?");

    // The connection is the pool's only one: bob must get it.
    Call bob = scene.report("bob");
    scene.awaitQuery(2, bob).open("bob's report: 2 rows");
    require(bob.outcome(WAIT, "after his query answered").equals(Outcome.of("bob's report: 2 rows")),
        "After ada's report timed out, report(\"bob\") should answer his report, but it answered "
            + bob.outcomeNow() + ".");
    scene.assertEveryConnectionBack("after ada's report timed out and bob's succeeded");
  }

  @Test
  @Order(2)
  @Points(3)
  @DisplayName("a caller who gives up: the report fails, the connection goes back at once, once; a caller who gives "
      + "up after the answer changes nothing; no deadline timer outlives its report")
  void aCallerWhoGivesUpGetsTheConnectionBackOnce(Vertx vertx) {
    ReportScene scene = new ReportScene(vertx, 1, NO_DEADLINE);
    Call ada = scene.report("ada");
    Gate<String> adaQuery = scene.awaitQuery(1, ada);

    ada.giveUp();
    Outcome<String> heard = ada.outcome(ReportScene.AT_ONCE, "after she gave up while her query still ran: her "
        + "callerGaveUp future completed, and the report should have failed with a CancellationException");
    require(heard.isFailure() && isCancellation(heard.error()), "ada gave up while her query still ran, and "
        + "report(\"ada\") answered " + heard + ". A caller who gave up must not be told a result: fail the report "
        + "with a java.util.concurrent.CancellationException.");
    scene.assertEveryConnectionBack("after ada gave up while her query still ran: the query may run for minutes, "
        + "and nobody wants its answer. Listen to callerGaveUp and abandon the use: settle the report's answer with "
        + "a failure, and give the connection back when the answer is settled");

    adaQuery.open("ada's report, nobody listens");
    scene.flush();
    scene.assertEachGivenBackOnce("after ada gave up and her abandoned query answered late");

    // bob gets the only connection, has his answer, and gives up afterwards: too late to change anything.
    Call bob = scene.report("bob");
    scene.awaitQuery(2, bob).open("bob's report: 2 rows");
    require(bob.outcome(WAIT, "after his query answered").equals(Outcome.of("bob's report: 2 rows")),
        "After ada gave up, report(\"bob\") should answer his report, but it answered " + bob.outcomeNow() + ".");
    bob.giveUp();
    scene.flush();
    scene.assertEveryConnectionBack("after bob had his report and gave up afterwards (a caller who gives up after "
        + "the answer must change nothing: the connection was already back)");

    // cyd gives up the other way: her callerGaveUp future fails, with an error of the caller's that is no
    // CancellationException. Any outcome of it means the same: the report fails with a CancellationException.
    Call cyd = scene.report("cyd");
    scene.awaitQuery(3, cyd);
    cyd.giveUpWith(new IllegalStateException("cyd closed the page"));
    Outcome<String> cydHeard = cyd.outcome(ReportScene.AT_ONCE, "after she gave up (her callerGaveUp future failed) "
        + "while her query still ran: callerGaveUp completing with a failure means the caller gave up too. Listen to "
        + "every outcome of it (onComplete), not to onSuccess alone");
    require(cydHeard.isFailure() && isCancellation(cydHeard.error()), "cyd gave up while her query still ran "
        + "(her callerGaveUp future failed with java.lang.IllegalStateException: cyd closed the page), and "
        + "report(\"cyd\") answered " + cydHeard + ". However the caller gives up, the report fails with a "
        + "java.util.concurrent.CancellationException: the caller's own error says why it left, not what became of "
        + "the report.");
    scene.assertEveryConnectionBack("after cyd gave up (her callerGaveUp future failed) while her query still ran");

    // The three reports are over, two given up, one answered well within its deadline of a minute: none may leave a
    // deadline timer scheduled.
    scene.assertNoDeadlineLeft("after three reports (ada and cyd gave up, bob had his answer)");
  }

  private static boolean isCancellation(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof java.util.concurrent.CancellationException) {
        return true;
      }
    }
    return false;
  }

  private static boolean isTimeout(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof TimeoutException) {
        return true;
      }
    }
    return false;
  }
}
