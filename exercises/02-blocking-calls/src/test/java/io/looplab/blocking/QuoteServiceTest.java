package io.looplab.blocking;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Points;
import io.looplab.grader.guard.GivenCode;
import io.looplab.grader.leaks.ShutdownCheck;
import io.looplab.grader.sync.Gate;
import io.looplab.grader.sync.GatedDependency;
import io.looplab.grader.testkit.Await;
import io.looplab.grader.testkit.DeployedService;
import io.looplab.grader.testkit.WarmUp;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.looplab.grader.testkit.Checks.require;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Grades each endpoint of the quote service on its own. An endpoint earns its points when it gives the right
 * answer and the guard saw nothing block or stall the event loop while it did. The guard needs no help from these
 * tests: any blocking call or long task on an event loop fails the running test, naming the line.
 *
 * <p>The service is deployed with fakes, each in a file of its own beside this test: {@link FlakyFeed},
 * {@link HeldAccounts} and {@link SlowAccounts}. The guard knows them for the test's code, not the learner's,
 * because they were compiled with the test. The classes the learner is given are declared with
 * {@code @GivenCode}, so that a call into them is reported at the learner's call.
 */
@GradedVertxTest
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@GivenCode(value = LegacyAccounts.class, is = "a synchronous client: it blocks until the old server answers")
@GivenCode(value = Primes.class, is = "pure CPU work, a few hundred milliseconds of it")
@GivenCode(value = PriceFeed.class, is = "an asynchronous client")
@GivenCode(value = RatingService.class, is = "an asynchronous client")
@DisplayName("02 Blocking calls")
class QuoteServiceTest {

  /** How long the test waits for one answer. Every correct answer comes in well under a second. */
  static final Duration ANSWER = Duration.ofSeconds(8);
  private static final String DISCLAIMER = "Quotes are delayed by 15 minutes. Not investment advice.\n";
  private static final int PRIMES_BELOW = 2_000_000;
  private static final int PRIMES_COUNT = 148_933;

  @TempDir
  Path dir;

  /** The file the deployed service serves at /disclaimer. */
  private Path disclaimerFile;

  /**
   * Warms the JVM up before the first graded test, so that the guard judges the code and not the JVM's first
   * steps: in a cold JVM the first deployment spends a few hundred milliseconds of CPU loading and instrumenting
   * classes inside {@code listen()}, which the stall detector can take for a stall in {@code start()}. So the
   * service is deployed once and called once on each endpoint, with harmless fakes, before any test starts.
   * Nothing here is graded: whatever fails here fails again, with its proper message, in the test that grades it.
   */
  @BeforeAll
  static void warmUpTheJvm(@TempDir Path tmp) throws IOException {
    Path file = Files.writeString(tmp.resolve("warm-up.txt"), "warm");
    WarmUp.jvm(vertx -> {
      QuoteVerticle verticle = new QuoteVerticle(new FlakyFeed(1, 1.0), file, id -> "warm",
          symbol -> Future.succeededFuture("A"));
      DeployedService service = DeployedService.deploy(vertx, verticle, QuoteVerticle::actualPort, ANSWER);
      for (String path : List.of("/health", "/quote/WARM", "/disclaimer", "/account/1", "/rating/WARM",
          "/primes?below=100")) {
        Await.result(service.get(path), ANSWER, "The warm-up request " + path + " got no answer.");
      }
    });
  }

  @Test
  @Order(1)
  @Points(5)
  @DisplayName("GET /quote/ACME retries a flaky feed after a backoff, without sleeping on the event loop")
  void retryingQuoteWaitsWithoutBlocking(Vertx vertx) throws Exception {
    FlakyFeed feed = new FlakyFeed(2, 101.25);
    DeployedService service = deploy(vertx, feed, noAccounts(), new GatedDependency<String, String>()::apply);

    HttpResponse<Buffer> answer = answerTo(service.get("/quote/ACME"), "GET /quote/ACME");

    assertJson(answer, "GET /quote/ACME", new JsonObject().put("symbol", "ACME").put("price", 101.25),
        "The feed failed twice and then answered, so the third attempt must bring the price.");
    List<Long> calls = feed.callTimes();
    assertEquals(3, calls.size(), "The feed should be asked exactly 3 times (two failures, then the price), but "
        + "it was asked " + calls.size() + " times.");
    for (int i = 1; i < calls.size(); i++) {
      long gapMs = TimeUnit.NANOSECONDS.toMillis(calls.get(i) - calls.get(i - 1));
      // A lower bound only: a timer never fires early, so a correct backoff can never fail this, however slow the
      // machine is. It catches a retry that hammers the feed with no pause at all.
      require(gapMs >= 10, "Retry " + i + " came " + gapMs + " ms after the failure before it. Keep the backoff "
          + "(20 ms, then 40 ms): retrying a struggling feed at once makes it struggle more. Wait without a thread, "
          + "with a Vert.x timer.");
    }
  }

  @Test
  @Order(2)
  @Points(5)
  @DisplayName("GET /disclaimer serves the file as it is on disk, read without blocking the event loop")
  void disclaimerIsReadWithoutBlocking(Vertx vertx) throws Exception {
    DeployedService service = deploy(vertx, new FlakyFeed(0, 1.0), noAccounts(),
        new GatedDependency<String, String>()::apply);

    assertText(answerTo(service.get("/disclaimer"), "GET /disclaimer"), "GET /disclaimer", DISCLAIMER,
        "The endpoint serves the disclaimer file's text, unchanged.");

    String updated = "Quotes are real-time since Monday.\n";
    Files.writeString(disclaimerFile, updated);
    assertText(answerTo(service.get("/disclaimer"), "GET /disclaimer"), "GET /disclaimer (after the file changed)",
        updated, "The file was edited while the service ran; the endpoint must read it again on each request, "
            + "not serve a copy taken earlier.");
  }

  @Test
  @Order(3)
  @Points(5)
  @DisplayName("GET /account/42 asks the synchronous legacy client, and the loop keeps serving while it waits")
  void legacyLookupRunsOffTheLoop(Vertx vertx) throws Exception {
    HeldAccounts accounts = new HeldAccounts("Ada Lovelace");
    DeployedService service = deploy(vertx, new FlakyFeed(0, 1.0), accounts,
        new GatedDependency<String, String>()::apply);
    try {
      Future<HttpResponse<Buffer>> pending = service.get("/account/42");
      require(accounts.entered.await(ANSWER.toNanos(), TimeUnit.NANOSECONDS), "GET /account/42 never called "
          + "LegacyAccounts.ownerOf within " + Await.inWords(ANSWER) + ". The owner's name can only come from the "
          + "legacy client.");
      // The legacy call is still in progress (the fake holds it until we release it): the loop must be free.
      assertText(answerTo(service.get("/health"), "GET /health while the account lookup was in progress"),
          "GET /health while the account lookup was in progress", "ok",
          "A request that waits for the legacy client must not stop the loop from serving other requests.");
      accounts.release.countDown();

      assertJson(answerTo(pending, "GET /account/42"), "GET /account/42",
          new JsonObject().put("account", "42").put("owner", "Ada Lovelace"),
          "The owner comes from LegacyAccounts.ownerOf(\"42\").");
    } finally {
      accounts.release.countDown();
    }
  }

  @Test
  @Order(4)
  @Points(5)
  @DisplayName("GET /rating/ACME composes on the rating's future instead of join(), and the loop stays free")
  void ratingIsComposedNotJoined(Vertx vertx) throws Exception {
    GatedDependency<String, String> ratings = new GatedDependency<>();
    DeployedService service = deploy(vertx, new FlakyFeed(0, 1.0), noAccounts(), ratings::apply);

    Future<HttpResponse<Buffer>> pending = service.get("/rating/ACME");
    // Waits until the service has asked for the rating; the rating stays pending until the test opens the gate.
    Gate<String> rating = ratings.call(0);
    assertEquals("ACME", rating.argument(), "GET /rating/ACME should ask the rating service about ACME");
    assertText(answerTo(service.get("/health"), "GET /health while the rating was pending"),
        "GET /health while the rating was pending", "ok",
        "While a request waits for the rating, the loop must go on serving other requests.");
    rating.open("AA");

    assertJson(answerTo(pending, "GET /rating/ACME"), "GET /rating/ACME",
        new JsonObject().put("symbol", "ACME").put("rating", "AA"),
        "The rating service answered \"AA\" for ACME.");
  }

  @Test
  @Order(5)
  @Points(5)
  @DisplayName("GET /primes?below=2000000 counts 148933 primes without stalling the event loop")
  void primeCountRunsOffTheLoop(Vertx vertx) throws Exception {
    DeployedService service = deploy(vertx, new FlakyFeed(0, 1.0), noAccounts(),
        new GatedDependency<String, String>()::apply);

    String request = "GET /primes?below=" + PRIMES_BELOW;
    assertJson(answerTo(service.get("/primes?below=" + PRIMES_BELOW), request), request,
        new JsonObject().put("below", PRIMES_BELOW).put("count", PRIMES_COUNT),
        "There are " + PRIMES_COUNT + " primes below " + PRIMES_BELOW + ".");
  }

  @Test
  @Order(6)
  @Points(3)
  @DisplayName("After undeploy nothing is left behind: no server, timer, worker pool or thread")
  void undeployLeavesNothingBehind(Vertx vertx) throws Exception {
    GatedDependency<String, String> ratings = new GatedDependency<>();
    DeployedService service = deploy(vertx, new FlakyFeed(1, 7.5), new SlowAccounts(), ratings::apply);

    // One request to each endpoint, so that whatever they set up (timers, worker pools, threads) has been created.
    assertOk(answerTo(service.get("/quote/ACME"), "GET /quote/ACME"), "GET /quote/ACME");
    assertOk(answerTo(service.get("/disclaimer"), "GET /disclaimer"), "GET /disclaimer");
    assertOk(answerTo(service.get("/account/7"), "GET /account/7"), "GET /account/7");
    Future<HttpResponse<Buffer>> rating = service.get("/rating/ACME");
    ratings.call(0).open("A");
    assertOk(answerTo(rating, "GET /rating/ACME"), "GET /rating/ACME");
    assertOk(answerTo(service.get("/primes?below=1000"), "GET /primes?below=1000"), "GET /primes?below=1000");

    service.client().close();
    ShutdownCheck.assertCleanUndeploy(vertx, service.deploymentId());
  }

  // ---------------------------------------------------------------------------------------------------------------
  // The service under test, deployed with the fakes of each test.

  private DeployedService deploy(Vertx vertx, PriceFeed feed, LegacyAccounts accounts, RatingService ratings)
      throws IOException {
    disclaimerFile = Files.writeString(dir.resolve("disclaimer.txt"), DISCLAIMER);
    return DeployedService.deploy(vertx, new QuoteVerticle(feed, disclaimerFile, accounts, ratings),
        QuoteVerticle::actualPort, ANSWER);
  }

  private static LegacyAccounts noAccounts() {
    return id -> {
      throw new IllegalStateException("this test does not expect a call to the legacy account system");
    };
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Waiting and checking, with messages that say what was expected, what came, and why it matters.

  /** The answer to {@code request}, or a failure saying that none came in time. */
  private static HttpResponse<Buffer> answerTo(Future<HttpResponse<Buffer>> request, String what) {
    return Await.result(request, ANSWER, what + ": no answer within " + Await.inWords(ANSWER) + ". Something the "
        + "request waits for never completes: a future nobody completes, or a loop that is stuck.");
  }

  private static void assertJson(HttpResponse<Buffer> answer, String request, JsonObject expected, String why) {
    String body = answer.bodyAsString();
    JsonObject got = null;
    if (answer.statusCode() == 200 && body != null) {
      try {
        got = new JsonObject(body);
      } catch (DecodeException e) {
        // reported below as a wrong body
      }
    }
    require(expected.equals(got),
        request + ": expected 200 with " + expected.encode() + ", got " + describe(answer) + ". " + why);
  }

  private static void assertText(HttpResponse<Buffer> answer, String request, String expected, String why) {
    require(answer.statusCode() == 200 && expected.equals(answer.bodyAsString()),
        request + ": expected 200 with \"" + expected.strip() + "\", got " + describe(answer) + ". " + why);
  }

  private static void assertOk(HttpResponse<Buffer> answer, String request) {
    require(answer.statusCode() == 200, request + ": expected 200, got " + describe(answer) + ". The shutdown "
        + "check first calls each endpoint once, so that whatever it sets up exists; every endpoint must work for it "
        + "to start.");
  }

  private static String describe(HttpResponse<Buffer> answer) {
    String body = answer.bodyAsString();
    if (body == null) {
      body = "";
    }
    body = body.strip();
    return answer.statusCode() + (body.isEmpty() ? " with an empty body"
        : " with \"" + (body.length() > 200 ? body.substring(0, 200) + "..." : body) + "\"");
  }
}
