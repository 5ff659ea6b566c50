package io.looplab.backpressure;

import io.looplab.backpressure.HeldSink.Answer;
import io.looplab.backpressure.IngestScene.Reply;
import io.looplab.downstream.ItemSink;
import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Points;
import io.looplab.grader.guard.GivenCode;
import io.looplab.grader.testkit.WarmUp;
import io.vertx.core.Vertx;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static io.looplab.grader.testkit.Checks.require;

/**
 * Grades {@code POST /items} with a sink that does not always make the service wait: it stores an item before
 * process() returns, fails one before process() returns, and throws from process() instead of answering. Each time
 * the sink is done with the item at once, and the item's place must be free for the next one. A limit of 1 makes
 * every lost place show at the next request.
 */
@GradedVertxTest
@Order(6)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@GivenCode(value = ItemSink.class, is = "the slow store behind POST /items")
@DisplayName("08 Backpressure: a sink that answers at once, or throws")
class SinkAnswersTest {

  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(SceneWarmUp::steps);
  }

  @Test
  @Order(10)
  @Points(2)
  @DisplayName("a sink that stores or fails an item before process() returns, or throws from process(), frees the "
      + "item's place all the same")
  void aSinkThatAnswersAtOnceOrThrowsFreesThePlace(Vertx vertx) {
    IngestScene scene = IngestScene.deploy(vertx, 1);
    String limitOne = " (limit 1)";

    scene.sink.answerNext(Answer.STORED_AT_ONCE);
    Reply first = scene.postAndWait("stored-at-once");
    require(first.status() == 202, "Into an empty service" + limitOne + ", stored-at-once was answered "
        + first.describe() + ".");

    scene.sink.answerNext(Answer.FAILED_AT_ONCE);
    Reply second = scene.postAndWait("failed-at-once");
    require(second.status() == 202, "The sink stored stored-at-once before process() returned: its future had "
        + "already succeeded when your code got it. The service was empty again" + limitOne + ", yet "
        + "failed-at-once was answered " + second.describe() + ". A future that is complete already runs the "
        + "callbacks you add at once, inside the call that adds them: if your code adds the item to what it "
        + "counts after it chains the callback that takes it out, the item is taken out first and stays counted "
        + "for ever" + scene.sinkCallSite() + ".");

    scene.sink.answerNext(Answer.THROWS);
    Reply third = scene.postAndWait("thrown");
    require(third.status() != 503 || scene.givenAgain("failed-at-once").isEmpty(), "After failed-at-once, the "
        + "item after it was answered " + third.describe() + "." + scene.givenAgain("failed-at-once"));
    require(third.status() != 503, "The sink failed failed-at-once before process() returned, so the service was "
        + "empty again" + limitOne + ", yet the item after it was answered " + third.describe() + ". A failure "
        + "that is already there when your code gets the future frees the place as surely as a later one"
        + scene.sinkCallSite() + ".");

    Reply fourth = scene.postAndWait("held");
    require(fourth.status() == 202, "The sink threw from process() instead of answering for the item 'thrown' "
        + "(thrown answered " + third.describe() + "), so the sink was done with it, yet the next item, into a "
        + "service that should have been empty" + limitOne + ", was answered " + fourth.describe()
        + scene.sink.thrownThrough() + ". The throw skipped the code that gives the place back, and the service "
        + "lost it for good. Treat a throw from process() as a failure: catch it and give the place back (or turn "
        + "it into a failed future, so that the same andThen/onComplete frees the place).");
    Reply fifth = scene.postAndWait("one-too-many");
    require(fifth.status() == 503, "The service held the item 'held', which the sink has not finished, and its "
        + "limit is 1, yet one-too-many was answered " + fifth.describe() + ": an item done at once was counted "
        + "out twice, or 'held' was never counted in.");
    require(scene.givenAgain("failed-at-once").isEmpty() && scene.givenAgain("thrown").isEmpty(),
        (scene.givenAgain("failed-at-once") + scene.givenAgain("thrown")).trim());
    scene.sink.completeAll();
  }
}
