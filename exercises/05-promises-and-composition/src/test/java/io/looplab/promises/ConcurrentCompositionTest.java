package io.looplab.promises;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Outcome;
import io.looplab.grader.Points;
import io.looplab.grader.guard.GivenCode;
import io.looplab.grader.sync.EveryOrder;
import io.looplab.grader.testkit.WarmUp;
import io.looplab.promises.QuoteScene.Call;
import io.vertx.core.Vertx;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static io.looplab.grader.testkit.Checks.require;

/**
 * Grades the compositions that ask side by side: snapshot (all: fails at the first failure), report (join: waits
 * for every one) and firstAnswer (any: the first success). Every request must be in flight before any answers, and
 * the test answers them in every order, checking after each answer whether the composition has answered yet.
 */
@GradedVertxTest
@GivenCode(value = LegacyQuoteClient.class, is = "the legacy quote client's callback API")
@Order(4)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@DisplayName("05 Promises: side by side with all, join and any")
class ConcurrentCompositionTest {

  static final List<String> SYMBOLS = List.of("ACME", "GLOBEX", "INITECH");
  static final List<String> FEEDS = List.of("east", "west", "north");
  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(SceneWarmUp::steps);
  }

  static Quote quoteOf(String symbol) {
    return new Quote(symbol, 10 + symbol.length(), "USD");
  }

  /** Asks, then checks that every request is in flight at once, before the test answers any. */
  private static List<FeedRequest> allInFlight(QuoteScene scene, Call<?> call, int n) {
    scene.client.awaitRequest(1, call);
    scene.flush();
    require(scene.client.requests() == n, call.what + " had " + scene.client.requests() + " of its " + n
        + " requests in flight (" + scene.client.requestedSoFar() + ") before any answered. They are independent: "
        + "start every fetch first, then combine the futures, instead of chaining one after another.");
    return scene.client.all();
  }

  private static String words(int[] order) {
    return Arrays.stream(order).mapToObj(i -> "#" + (i + 1)).collect(Collectors.joining(" then "));
  }

  @TestFactory
  @Order(1)
  @Points(3)
  @DisplayName("snapshot asks for every symbol at once and answers the quotes in the order asked, whichever answers "
      + "first")
  Stream<DynamicTest> snapshotAsksAtOnce(Vertx vertx) {
    return EveryOrder.of(3, order -> {
      QuoteScene scene = new QuoteScene(vertx);
      Call<List<Quote>> call = scene.call("snapshot(" + SYMBOLS + ")", s -> s.snapshot(SYMBOLS));
      List<FeedRequest> requests = allInFlight(scene, call, 3);
      for (int i : order) {
        requests.get(i).quote(quoteOf(requests.get(i).symbol));
      }
      Outcome<Object> outcome = call.outcome("every feed answered, in the order " + words(order));
      List<Quote> expected = SYMBOLS.stream().map(ConcurrentCompositionTest::quoteOf).toList();
      require(outcome.equals(Outcome.of(expected)), call.what + " answered " + outcome + " after the answers came "
          + "in the order " + words(order) + "; it should be " + expected + ", in the order the symbols were asked.");
      scene.assertNothingPending(call.what);
    });
  }

  @TestFactory
  @Order(2)
  @Points(4)
  @DisplayName("snapshot fails with the first failure at once, while the other fetches are still pending")
  Stream<DynamicTest> snapshotFailsFast(Vertx vertx) {
    return EveryOrder.of(3, order -> {
      QuoteScene scene = new QuoteScene(vertx);
      Call<List<Quote>> call = scene.call("snapshot(" + SYMBOLS + ")", s -> s.snapshot(SYMBOLS));
      List<FeedRequest> requests = allInFlight(scene, call, 3);
      FeedRequest failing = requests.get(order[0]);
      FeedDown down = new FeedDown(failing.symbol + " unavailable");
      // In half the orders the failure comes from a thread of the client's, as most legacy clients answer.
      boolean foreign = order[1] < order[2];
      if (foreign) {
        failing.errorFrom("legacy-feed-1", down);
      } else {
        failing.error(down);
      }
      scene.flush();
      require(call.answered(), call.what + " had not answered once " + failing + " failed" + (foreign ? " (from the "
          + "client's thread legacy-feed-1)" : "") + ", with the two others still pending (order " + words(order)
          + "). A snapshot with a hole in it is no snapshot: it should fail "
          + "at once, not wait for the others. Future.all fails at the first failure (Future.join waits for all).");
      Outcome<Object> outcome = call.now();
      require(outcome.isFailure() && FeedDown.isOrWraps(outcome.error(), down), call.what + " answered " + outcome
          + " when " + failing + " failed with " + down + "; it should fail with that error.");
      for (int i : Arrays.copyOfRange(order, 1, 3)) {
        requests.get(i).quote(quoteOf(requests.get(i).symbol));
      }
      scene.assertNothingThrownBack("the other feeds answered after the snapshot had failed");
      scene.assertNothingPending(call.what);
    });
  }

  @TestFactory
  @Order(3)
  @Points(4)
  @DisplayName("report waits for every fetch, then gives each symbol its quote or its error, whichever answers "
      + "first")
  Stream<DynamicTest> reportWaitsForEveryOne(Vertx vertx) {
    return EveryOrder.of(3, order -> {
      QuoteScene scene = new QuoteScene(vertx);
      Call<List<Line>> call = scene.call("report(" + SYMBOLS + ")", s -> s.report(SYMBOLS));
      List<FeedRequest> requests = allInFlight(scene, call, 3);
      FeedDown down = new FeedDown("GLOBEX unavailable");
      List<String> done = new ArrayList<>();
      for (int step = 0; step < 3; step++) {
        FeedRequest request = requests.get(order[step]);
        if (request.symbol.equals("GLOBEX")) {
          request.error(down);
          done.add(request + " failed");
        } else {
          request.quote(quoteOf(request.symbol));
          done.add(request + " answered");
        }
        if (step < 2) {
          scene.flush();
          require(!call.answered(), call.what + " answered " + call.now() + " when only " + String.join(", ", done)
              + ", with another still pending. A report waits for every fetch, whatever each answers: Future.join "
              + "does (Future.all gives up at the first failure).");
        }
      }
      Outcome<Object> outcome = call.outcome(String.join(", ", done));
      require(!outcome.isFailure() && outcome.value() instanceof List<?>, call.what + " answered " + outcome
          + " after " + String.join(", ", done) + ". A report is an answer even when some fetches failed: one line "
          + "per symbol, with its quote or its error. Wait for every one with Future.join, then look at each.");
      List<?> lines = (List<?>) outcome.value();
      List<Line> expected = List.of(Line.of(quoteOf("ACME")), Line.failed("GLOBEX", down),
          Line.of(quoteOf("INITECH")));
      boolean right = lines.size() == 3 && lines.get(0).equals(expected.get(0)) && lines.get(2).equals(expected.get(2))
          && lines.get(1) instanceof Line globex && globex.symbol().equals("GLOBEX") && globex.quote() == null
          && FeedDown.isOrWraps(globex.error(), down);
      require(right, call.what + " answered " + lines + "; it should be " + expected + ": in the order asked, each "
          + "success with its quote, the failure with its error.");
      scene.assertNothingPending(call.what);
    });
  }

  @TestFactory
  @Order(4)
  @Points(3)
  @DisplayName("firstAnswer asks every feed at once and answers the first quote at once, skipping failures before it")
  Stream<DynamicTest> firstAnswerTakesTheFirstSuccess(Vertx vertx) {
    return EveryOrder.of(3, order -> {
      QuoteScene scene = new QuoteScene(vertx);
      Call<Quote> call = scene.call("firstAnswer(\"ACME\", " + FEEDS + ")", s -> s.firstAnswer("ACME", FEEDS));
      List<FeedRequest> requests = allInFlight(scene, call, 3);
      FeedRequest failing = requests.get(order[0]);
      FeedRequest winner = requests.get(order[1]);
      failing.error(new FeedDown(failing.feed + " down"));
      scene.flush();
      require(!call.answered(), call.what + " answered " + call.now() + " as soon as " + failing + " failed, with "
          + "two feeds still to answer. One failure is not the end: wait for the first success (Future.any).");
      Quote fromWinner = new Quote("ACME", 11.0 + order[1], winner.feed);
      winner.quote(fromWinner);
      Outcome<Object> outcome = call.outcome(failing + " failed and " + winner + " answered " + fromWinner
          + ", with the third still pending: the first success is the answer, at once");
      require(outcome.equals(Outcome.of(fromWinner)), call.what + " answered " + outcome + "; the first quote "
          + "to arrive was " + fromWinner + " from " + winner + ".");
      FeedRequest last = requests.get(order[2]);
      last.quote(new Quote("ACME", 99.0, last.feed));
      scene.assertNothingThrownBack("the last feed answered after the first quote");
      scene.assertNothingPending(call.what);
    });
  }

  @TestFactory
  @Order(5)
  @Points(2)
  @DisplayName("firstAnswer fails only once every feed has failed, whichever fails last")
  Stream<DynamicTest> firstAnswerFailsWhenEveryFeedFailed(Vertx vertx) {
    return EveryOrder.of(3, order -> {
      QuoteScene scene = new QuoteScene(vertx);
      Call<Quote> call = scene.call("firstAnswer(\"ACME\", " + FEEDS + ")", s -> s.firstAnswer("ACME", FEEDS));
      List<FeedRequest> requests = allInFlight(scene, call, 3);
      List<FeedDown> errors = new ArrayList<>();
      List<String> failed = new ArrayList<>();
      for (int step = 0; step < 3; step++) {
        FeedRequest request = requests.get(order[step]);
        FeedDown down = new FeedDown(request.feed + " down");
        errors.add(down);
        failed.add(request.toString());
        request.error(down);
        if (step < 2) {
          scene.flush();
          require(!call.answered(), call.what + " answered " + call.now() + " after " + (step + 1) + " of 3 feeds "
              + "failed (" + String.join(", ", failed) + ", order " + words(order) + "); it should wait while any "
              + "feed may still answer.");
        }
      }
      Outcome<Object> outcome = call.outcome("every feed failed, in the order " + words(order));
      require(outcome.isFailure() && errors.stream().anyMatch(e -> FeedDown.carries(outcome.error(), e)),
          call.what + " answered " + outcome + " when all three feeds failed (" + errors + "); it should fail with "
              + "one of their errors, or with an error of its own that carries them (as its cause or suppressed).");
      scene.assertNothingPending(call.what);
    });
  }
}
