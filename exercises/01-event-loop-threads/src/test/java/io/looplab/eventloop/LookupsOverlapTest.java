package io.looplab.eventloop;

import io.looplab.eventloop.GatedDirectory.Lookup;
import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Points;
import io.looplab.grader.guard.GivenCode;
import io.looplab.grader.sync.EveryOrder;
import io.looplab.grader.testkit.Await;
import io.looplab.grader.testkit.WarmUp;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.TestFactory;

import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static io.looplab.grader.testkit.Checks.require;

/**
 * Grades whether the two lookups of a dashboard really overlap, and whether every answer is right whichever lookup
 * answers first. The proof of overlap is a gate, not a clock: the test holds the first lookup unanswered, and the
 * second must be called all the same.
 */
@GradedVertxTest
@GivenCode(value = VisitLog.class, is = "the dashboard's loop-owned bookkeeping, which notes the thread of each call")
@GivenCode(value = UserDirectory.class, is = "the directory's client: it answers on its own thread")
@Order(2)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@DisplayName("01 Event-loop threads: async is not concurrent until both lookups are started")
class LookupsOverlapTest {

  private static final List<String> ADA = List.of("ada's profile lookup", "ada's orders lookup");
  private static final List<String> ADA_AND_BOB = List.of("ada's profile lookup", "ada's orders lookup",
      "bob's profile lookup", "bob's orders lookup");

  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(SceneWarmUp::steps);
  }

  @TestFactory
  @Order(3)
  @Points(4)
  @DisplayName("both lookups of a dashboard are in flight at once (#1 profile, #2 orders): the second starts while "
      + "the first is still unanswered, and the answer is right in either release order")
  Stream<DynamicTest> bothLookupsAreInFlightAtOnce(Vertx vertx) {
    return EveryOrder.of(2, order -> {
      try (DashboardScene scene = new DashboardScene(vertx)) {
        Future<HttpResponse<Buffer>> answer = scene.ask("ada");
        Lookup first = scene.awaitFirstLookup("ada");
        require(scene.secondLookupArrivesWithin(DashboardScene.NOT_CALLED_MILLIS), "Only " + first.label()
            + " was called" + first.calledFrom() + "; the other lookup was not called within "
            + DashboardScene.NOT_CALLED_MILLIS + " ms while the test held that first one unanswered. The two lookups "
            + "do not depend on each other, yet the code waits for one before it starts the other: chained with "
            + "compose, async code still runs one step after the other, and the dashboard takes the sum of both "
            + "delays instead of the longer one. Start both lookups first, then wait for both: "
            + "Future.all(profile, orders).");
        scene.drive(priority(ADA, order), Set.of(), List.of(answer));
        scene.assertDashboard(answer, "ada");
      }
    });
  }

  @TestFactory
  @Order(4)
  @Points(3)
  @DisplayName("two dashboards at once (#1 ada's profile, #2 ada's orders, #3 bob's profile, #4 bob's orders): each "
      + "user gets their own profile and orders, whichever lookup answers first; and when ada's orders lookup fails, "
      + "ada gets the error and bob his dashboard, in every order too")
  Stream<DynamicTest> twoDashboardsAtOnceEachGetTheirOwn(Vertx vertx) {
    return Stream.of(false, true).flatMap(adaFails -> EveryOrder.permutations(4).stream().map(order ->
        DynamicTest.dynamicTest((adaFails ? "ada's orders lookup fails, " : "") + "release order "
            + Arrays.stream(order).mapToObj(i -> "#" + (i + 1)).collect(Collectors.joining(" ")),
            () -> twoDashboards(vertx, order, adaFails))));
  }

  private static void twoDashboards(Vertx vertx, int[] order, boolean adaFails) {
    try (DashboardScene scene = new DashboardScene(vertx)) {
      Future<HttpResponse<Buffer>> ada = scene.ask("ada");
      Future<HttpResponse<Buffer>> bob = scene.ask("bob");
      String failing = "ada's orders lookup";
      scene.drive(priority(ADA_AND_BOB, order), adaFails ? Set.of(failing) : Set.of(), List.of(ada, bob));
      if (adaFails) {
        FailedAnswer.assertFailedWith(scene.responseTo(ada, "ada's dashboard got no answer within "
            + Await.inWords(DashboardScene.AFTER_THE_LAST_LOOKUP) + " after " + failing + " failed (the test "
            + "answered: " + scene.releasedSoFar() + "). Answer every request, a failed one too."), failing,
            Users.outage("orders", "ada"));
      } else {
        scene.assertDashboard(ada, "ada");
      }
      scene.assertDashboard(bob, "bob");
    }
  }

  /** The labels in the order that {@code order} gives them: order[0] first. */
  static List<String> priority(List<String> labels, int[] order) {
    return Arrays.stream(order).mapToObj(labels::get).toList();
  }
}
