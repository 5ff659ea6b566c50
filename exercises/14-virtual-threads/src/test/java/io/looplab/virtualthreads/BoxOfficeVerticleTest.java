package io.looplab.virtualthreads;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Points;
import io.looplab.grader.leaks.LockCensus;
import io.looplab.grader.leaks.ShutdownCheck;
import io.looplab.grader.races.Fresh;
import io.looplab.grader.sync.GatedDependency;
import io.looplab.grader.testkit.Await;
import io.looplab.grader.testkit.WarmUp;
import io.vertx.core.Context;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.ThreadingModel;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.looplab.grader.testkit.Checks.require;
import static io.looplab.virtualthreads.AvailabilityServiceDown.OUTAGE;

/**
 * Grades BoxOfficeVerticle as it is deployed: with the learner's own deployment options, on virtual threads, where
 * await() is allowed; over the event bus, a reservation and a quote; and its undeploy while a reservation is still
 * waiting for its check, which Vert.x interrupts, and which must give back its lock all the same.
 */
@GradedVertxTest
@Order(6)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@DisplayName("14 Virtual threads: the box office on virtual threads, and its undeploy")
class BoxOfficeVerticleTest {

  private static final Duration WAIT = ShowScene.WAIT;

  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(SceneWarmUp::steps);
  }

  /** The box office's remote services, gated, and the threading model of the first availability check's caller. */
  private static final class Services {
    final GatedDependency<String, Boolean> check = new GatedDependency<>();
    final GatedDependency<String, Integer> prices = new GatedDependency<>();
    final GatedDependency<String, Integer> discounts = new GatedDependency<>();
    /** The threading model of the context that made the first availability check. */
    final CompletableFuture<String> firstCall = new CompletableFuture<>();

    BoxOfficeVerticle boxOffice(int seats) {
      return new BoxOfficeVerticle(seats, who -> {
        Context context = Vertx.currentContext();
        String model = context == null ? "(no Vert.x context)" : String.valueOf(context.threadingModel());
        firstCall.complete(model);
        if (!model.equals(String.valueOf(ThreadingModel.VIRTUAL_THREAD))) {
          // Refused before the learner's code reaches its await(): the test says what is wrong, not the await's
          // failure on a thread where it cannot wait.
          throw new AvailabilityServiceDown("the test's check refuses a call from a " + model + " context");
        }
        return check.apply(who);
      }, () -> prices.apply("the show"), discounts::apply);
    }
  }

  @Test
  @Order(9)
  @Points(3)
  @DisplayName("deployed with its own deploymentOptions(), the box office runs on virtual threads: a reservation and "
      + "a quote are answered over the event bus")
  void boxOfficeRunsOnVirtualThreads(Vertx vertx) {
    DeploymentOptions options = BoxOfficeVerticle.deploymentOptions();
    ThreadingModel model = options == null ? null : options.getThreadingModel();
    require(model == ThreadingModel.VIRTUAL_THREAD, "BoxOfficeVerticle.deploymentOptions() deploys the box office with "
        + "the threading model " + model + ", not VIRTUAL_THREAD: set it with new DeploymentOptions()"
        + ".setThreadingModel(ThreadingModel.VIRTUAL_THREAD). SeatCounter and TicketQuotes wait with Future.await(), "
        + "which waits only on a virtual thread: on an event loop or a worker thread it throws IllegalStateException, "
        + "and blocking an event loop would stall every request it serves.");
    Services services = new Services();
    String id = Await.result(vertx.deployVerticle(services.boxOffice(5), options), WAIT,
        "Deploying BoxOfficeVerticle with BoxOfficeVerticle.deploymentOptions() did not finish within "
            + Await.inWords(WAIT) + ".");

    Future<Message<JsonObject>> ada = vertx.eventBus().request(BoxOfficeVerticle.RESERVE, Fresh.copyOf("ada"));
    String caller;
    try {
      caller = services.firstCall.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      throw new AssertionFailedError("The box office did not call the availability check for ada within " + Await
          .inWords(WAIT) + ": " + (!ada.isComplete() ? "no reply yet" : ada.failed() ? ada.cause() : "a reply") + ".");
    }
    require(caller.equals(String.valueOf(ThreadingModel.VIRTUAL_THREAD)), "The box office handled ada's reservation "
        + "on a context whose threading model is " + caller + ", not VIRTUAL_THREAD, though it was deployed with "
        + "deploymentOptions(): each request must be handled on the verticle's own virtual threads.");
    services.check.awaitCalls(1, WAIT.toMillis()).get(0).open(true);
    JsonObject reply = Await.result(ada, WAIT, "The box office did not reply to ada within " + Await.inWords(WAIT)
        + " after her check said yes.").body();
    require(reply.equals(new JsonObject().put("who", "ada").put("reserved", true).put("freeSeats", 4)),
        "The box office should reply {\"who\":\"ada\",\"reserved\":true,\"freeSeats\":4} to ada's reservation of "
            + "one of 5 seats, but replied " + reply + ".");

    Future<Message<JsonObject>> quote = vertx.eventBus().request(BoxOfficeVerticle.QUOTE, Fresh.copyOf("ada"));
    services.prices.awaitCalls(1, WAIT.toMillis()).get(0).open(QuoteDesk.BASE_PRICE);
    services.discounts.awaitCalls(1, WAIT.toMillis()).get(0).open(QuoteDesk.DISCOUNT);
    JsonObject priced = Await.result(quote, WAIT, "The box office did not answer ada's quote within "
        + Await.inWords(WAIT) + " after both lookups answered.").body();
    require(priced.equals(new JsonObject().put("who", "ada").put("price", QuoteDesk.QUOTE)), "The box office should "
        + "reply {\"who\":\"ada\",\"price\":" + QuoteDesk.QUOTE + "} to ada's quote, but replied " + priced + ".");
    ShutdownCheck.assertCleanUndeploy(vertx, id);
  }

  @Test
  @Order(10)
  @Points(3)
  @DisplayName("undeployed while a reservation awaits its check, the box office gives back its lock, fails that "
      + "request, leaves nothing behind and, deployed again, lets the next reservation in")
  void undeployLeavesNothingBehind(Vertx vertx) {
    Services services = new Services();
    String id = Await.result(vertx.deployVerticle(services.boxOffice(5), Stage.virtualThreads()), WAIT,
        "Deploying BoxOfficeVerticle on virtual threads did not finish within " + Await.inWords(WAIT) + ".");

    Future<Message<JsonObject>> ada = vertx.eventBus().request(BoxOfficeVerticle.RESERVE, Fresh.copyOf("ada"));
    services.check.awaitCalls(1, WAIT.toMillis()).get(0).open(true);
    Await.result(ada, WAIT, "The box office did not reply to ada within " + Await.inWords(WAIT) + " after her check "
        + "said yes.");

    Future<Message<JsonObject>> mallory = vertx.eventBus().request(BoxOfficeVerticle.RESERVE,
        Fresh.copyOf("mallory"));
    services.check.awaitCalls(2, WAIT.toMillis()).get(1).fail(new AvailabilityServiceDown(OUTAGE));
    Throwable failure = Await.failure(mallory, WAIT, "The box office did not answer mallory within "
        + Await.inWords(WAIT) + " after her check failed.", "mallory's check failed, so the box office should fail "
        + "her request with code " + BoxOfficeVerticle.CHECK_FAILED + ", but it replied %s: SeatCounter.reserve must "
        + "throw the check's error.");
    require(failure instanceof ReplyException reject && reject.failureCode() == BoxOfficeVerticle.CHECK_FAILED,
        "mallory's check failed, so the box office should fail her request with code " + BoxOfficeVerticle.CHECK_FAILED
            + ", but the reply was: " + failure + ".");
    List<String> held = LockCensus.heldLocalLocks(vertx);
    require(held.isEmpty(), "Lock leak: every reservation has answered, and yet " + String.join(", ", held)
        + (held.size() == 1 ? " is" : " are") + " still held. Release the lock on every path, an exception "
        + "included: try { ... } finally { lock.release(); }.");

    // cyd's reservation is left waiting for its check: undeploying interrupts it.
    Future<Message<JsonObject>> cyd = vertx.eventBus().request(BoxOfficeVerticle.RESERVE, Fresh.copyOf("cyd"));
    services.check.awaitCalls(3, WAIT.toMillis());
    try {
      ShutdownCheck.assertCleanUndeploy(vertx, id);
    } catch (AssertionFailedError leak) {
      if (!LockCensus.heldLocalLocks(vertx).isEmpty()) {
        throw new AssertionFailedError(leak.getMessage() + " The box office was undeployed while cyd's reservation "
            + "was suspended in the await of its check. Undeploying a virtual-thread verticle interrupts such a "
            + "reservation: its await() throws InterruptedException, a checked exception that await() throws without "
            + "declaring it, so a catch (RuntimeException e) does not see it, and the lock it held stays held for good. "
            + "Release the lock in a finally block, which runs however the reservation ends.", leak);
      }
      throw leak;
    }
    heardACutShortReservation(cyd);
    nextDeploymentGetsItsTurn(vertx);
  }

  /** cyd's reservation was cut short by the undeploy: nobody said no to her, so she must hear a failure. */
  private static void heardACutShortReservation(Future<Message<JsonObject>> cyd) {
    io.vertx.core.AsyncResult<Message<JsonObject>> heard = Await.outcome(cyd, WAIT, "The box office was undeployed "
        + "while cyd's reservation was suspended in the await of her check, and her request got no answer within "
        + Await.inWords(WAIT) + " after the undeploy. A reservation cut short must reach its caller as a failure.");
    require(heard.failed(), "The box office was undeployed while cyd's reservation was suspended in the await of her "
        + "check, and her request was answered " + (heard.succeeded() ? heard.result().body() : null) + ". Her check "
        + "never answered: the undeploy interrupted her reservation (its await() threw InterruptedException). A "
        + "reservation cut short must reach its caller as a failure (the box office answers " + BoxOfficeVerticle
        .CHECK_FAILED + " when reserve throws), never as a seat, nor as false, which tells her she was refused: let "
        + "the exception out of reserve, and give back what the reservation holds in a finally block.");
  }

  /**
   * Deployed again in the same Vert.x instance after an undeploy in the middle of a reservation, the box office lets
   * the next reservation in: nothing of the first deployment stands in its way.
   */
  private static void nextDeploymentGetsItsTurn(Vertx vertx) {
    Services again = new Services();
    String id = Await.result(vertx.deployVerticle(again.boxOffice(5), Stage.virtualThreads()), WAIT,
        "Deploying BoxOfficeVerticle a second time did not finish within " + Await.inWords(WAIT) + ".");
    Future<Message<JsonObject>> eve = vertx.eventBus().request(BoxOfficeVerticle.RESERVE, Fresh.copyOf("eve"));
    // A correct box office calls the check at once; 2 s is a wide margin on a busy machine, and keeps the whole test
    // within its 10 s.
    long within = 2 * ShowScene.STUCK_MILLIS;
    if (!again.check.arrivesWithin(1, within)) {
      List<String> held = LockCensus.heldLocalLocks(vertx);
      throw new AssertionFailedError("The box office was undeployed in the middle of cyd's reservation, then deployed "
          + "again, with 5 seats, in the same Vert.x instance; eve's reservation to the new deployment did not reach "
          + "its availability check within " + within + " ms, and her request " + (eve.isComplete() ? "was answered "
          + (eve.succeeded() ? eve.result().body() : eve.cause()) : "has no answer") + ". " + (held.isEmpty()
          ? "No local lock is held" : "Meanwhile " + String.join(", ", held) + (held.size() == 1 ? " is" : " are")
          + " held") + ", though no reservation of the first deployment is running any more: something it left "
          + "behind stands in the way of the second. What a static field holds (a lock name, a line of turns) "
          + "outlives the deployment that set it, and a turn handed on only after a normal return or a "
          + "RuntimeException is never handed on by a reservation that the undeploy interrupted. Keep a counter's "
          + "state in its instance, and hand the turn on in a finally block.");
    }
    again.check.calledSoFar().get(0).open(true);
    JsonObject reply = Await.result(eve, WAIT, "The redeployed box office did not reply to eve within "
        + Await.inWords(WAIT) + " after her check said yes.").body();
    require(reply.equals(new JsonObject().put("who", "eve").put("reserved", true).put("freeSeats", 4)),
        "The redeployed box office should reply {\"who\":\"eve\",\"reserved\":true,\"freeSeats\":4} to eve's "
            + "reservation of one of its 5 seats, but replied " + reply + ".");
    ShutdownCheck.assertCleanUndeploy(vertx, id);
  }
}
