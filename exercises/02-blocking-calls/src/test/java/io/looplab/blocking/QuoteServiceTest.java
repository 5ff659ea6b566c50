package io.looplab.blocking;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Points;
import io.looplab.grader.guard.GivenCode;
import io.looplab.grader.leaks.ShutdownCheck;
import io.looplab.grader.sync.Gate;
import io.looplab.grader.sync.GatedDependency;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Grades each endpoint of the quote service on its own. An endpoint earns its points when it gives the right
 * answer and the guard saw nothing block or stall the event loop while it did. The guard needs no help from these
 * tests: any blocking call or long task on an event loop fails the running test, naming the line.
 *
 * <p>The fakes below live inside this test class on purpose: the guard treats every other class of this package
 * as the learner's code, and names the learner's line, not the fake's; the classes the learner is given are
 * declared with {@code @GivenCode}, so that a call into them is reported at the learner's call.
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
  private static final long ANSWER_SECONDS = 8;
  private static final String DISCLAIMER = "Quotes are delayed by 15 minutes. Not investment advice.\n";
  private static final int PRIMES_BELOW = 2_000_000;
  private static final int PRIMES_COUNT = 148_933;

  @TempDir
  Path dir;

  /**
   * Warms the JVM up before the first graded test, so that the guard judges the code and not the JVM's first
   * steps: in a cold JVM the first deployment spends a few hundred milliseconds of CPU loading and instrumenting
   * classes inside {@code listen()}, which the stall detector can take for a stall in {@code start()}. So the
   * service is deployed once and called once on each endpoint, with harmless fakes, before any test starts.
   * Nothing here is graded: no test is running yet, and whatever fails here fails again, with its proper message,
   * in the test that grades it.
   */
  @BeforeAll
  static void warmUpTheJvm(@TempDir Path tmp) throws IOException {
    Path file = Files.writeString(tmp.resolve("warm-up.txt"), "warm");
    Vertx vertx = Vertx.vertx();
    try {
      QuoteVerticle verticle = new QuoteVerticle(new FlakyFeed(1, 1.0), file, id -> "warm",
          symbol -> Future.succeededFuture("A"));
      vertx.deployVerticle(verticle).toCompletionStage().toCompletableFuture().get(ANSWER_SECONDS, TimeUnit.SECONDS);
      WebClient client = WebClient.create(vertx);
      for (String path : List.of("/health", "/quote/WARM", "/disclaimer", "/account/1", "/rating/WARM",
          "/primes?below=100")) {
        client.get(verticle.actualPort(), "127.0.0.1", path).send()
            .toCompletionStage().toCompletableFuture().get(ANSWER_SECONDS, TimeUnit.SECONDS);
      }
    } catch (Exception | AssertionError e) {
      // Not graded; see above.
    } finally {
      try {
        vertx.close().toCompletionStage().toCompletableFuture().get(ANSWER_SECONDS, TimeUnit.SECONDS);
      } catch (Exception e) {
        // Not graded either.
      }
    }
  }

  @Test
  @Order(1)
  @Points(5)
  @DisplayName("GET /quote/ACME retries a flaky feed after a backoff, without sleeping on the event loop")
  void retryingQuoteWaitsWithoutBlocking(Vertx vertx) throws Exception {
    FlakyFeed feed = new FlakyFeed(2, 101.25);
    Service service = deploy(vertx, feed, noAccounts(), new GatedDependency<String, String>()::apply);

    HttpResponse<Buffer> answer = await(service.get("/quote/ACME"), "GET /quote/ACME");

    assertJson(answer, "GET /quote/ACME", new JsonObject().put("symbol", "ACME").put("price", 101.25),
        "The feed failed twice and then answered, so the third attempt must bring the price.");
    List<Long> calls = feed.callTimes();
    assertEquals(3, calls.size(), "The feed should be asked exactly 3 times (two failures, then the price), but "
        + "it was asked " + calls.size() + " times.");
    for (int i = 1; i < calls.size(); i++) {
      long gapMs = TimeUnit.NANOSECONDS.toMillis(calls.get(i) - calls.get(i - 1));
      // A lower bound only: a timer never fires early, so a correct backoff can never fail this, however slow the
      // machine is. It catches a retry that hammers the feed with no pause at all.
      if (gapMs < 10) {
        fail("Retry " + i + " came " + gapMs + " ms after the failure before it. Keep the backoff (20 ms, then "
            + "40 ms): retrying a struggling feed at once makes it struggle more. Wait without a thread, with a "
            + "Vert.x timer.");
      }
    }
  }

  @Test
  @Order(2)
  @Points(5)
  @DisplayName("GET /disclaimer serves the file as it is on disk, read without blocking the event loop")
  void disclaimerIsReadWithoutBlocking(Vertx vertx) throws Exception {
    Service service = deploy(vertx, new FlakyFeed(0, 1.0), noAccounts(), new GatedDependency<String, String>()::apply);

    assertText(await(service.get("/disclaimer"), "GET /disclaimer"), "GET /disclaimer", DISCLAIMER,
        "The endpoint serves the disclaimer file's text, unchanged.");

    String updated = "Quotes are real-time since Monday.\n";
    Files.writeString(service.disclaimerFile, updated);
    assertText(await(service.get("/disclaimer"), "GET /disclaimer"), "GET /disclaimer (after the file changed)",
        updated, "The file was edited while the service ran; the endpoint must read it again on each request, "
            + "not serve a copy taken earlier.");
  }

  @Test
  @Order(3)
  @Points(5)
  @DisplayName("GET /account/42 asks the synchronous legacy client, and the loop keeps serving while it waits")
  void legacyLookupRunsOffTheLoop(Vertx vertx) throws Exception {
    HeldAccounts accounts = new HeldAccounts("Ada Lovelace");
    Service service = deploy(vertx, new FlakyFeed(0, 1.0), accounts, new GatedDependency<String, String>()::apply);
    try {
      Future<HttpResponse<Buffer>> pending = service.get("/account/42");
      if (!accounts.entered.await(ANSWER_SECONDS, TimeUnit.SECONDS)) {
        fail("GET /account/42 never called LegacyAccounts.ownerOf within " + ANSWER_SECONDS + " s. The owner's "
            + "name can only come from the legacy client.");
      }
      // The legacy call is still in progress (the fake holds it until we release it): the loop must be free.
      assertText(await(service.get("/health"), "GET /health while the account lookup was in progress"),
          "GET /health while the account lookup was in progress", "ok",
          "A request that waits for the legacy client must not stop the loop from serving other requests.");
      accounts.release.countDown();

      assertJson(await(pending, "GET /account/42"), "GET /account/42",
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
    Service service = deploy(vertx, new FlakyFeed(0, 1.0), noAccounts(), ratings::apply);

    Future<HttpResponse<Buffer>> pending = service.get("/rating/ACME");
    // Waits until the service has asked for the rating; the rating stays pending until the test opens the gate.
    Gate<String> rating = ratings.call(0);
    assertEquals("ACME", rating.argument(), "GET /rating/ACME should ask the rating service about ACME");
    assertText(await(service.get("/health"), "GET /health while the rating was pending"),
        "GET /health while the rating was pending", "ok",
        "While a request waits for the rating, the loop must go on serving other requests.");
    rating.open("AA");

    assertJson(await(pending, "GET /rating/ACME"), "GET /rating/ACME",
        new JsonObject().put("symbol", "ACME").put("rating", "AA"),
        "The rating service answered \"AA\" for ACME.");
  }

  @Test
  @Order(5)
  @Points(5)
  @DisplayName("GET /primes?below=2000000 counts 148933 primes without stalling the event loop")
  void primeCountRunsOffTheLoop(Vertx vertx) throws Exception {
    Service service = deploy(vertx, new FlakyFeed(0, 1.0), noAccounts(), new GatedDependency<String, String>()::apply);

    String request = "GET /primes?below=" + PRIMES_BELOW;
    assertJson(await(service.get("/primes?below=" + PRIMES_BELOW), request), request,
        new JsonObject().put("below", PRIMES_BELOW).put("count", PRIMES_COUNT),
        "There are " + PRIMES_COUNT + " primes below " + PRIMES_BELOW + ".");
  }

  @Test
  @Order(6)
  @Points(3)
  @DisplayName("After undeploy nothing is left behind: no server, timer, worker pool or thread")
  void undeployLeavesNothingBehind(Vertx vertx) throws Exception {
    GatedDependency<String, String> ratings = new GatedDependency<>();
    Service service = deploy(vertx, new FlakyFeed(1, 7.5), new SlowAccounts(), ratings::apply);

    // One request to each endpoint, so that whatever they set up (timers, worker pools, threads) has been created.
    assertOk(await(service.get("/quote/ACME"), "GET /quote/ACME"), "GET /quote/ACME");
    assertOk(await(service.get("/disclaimer"), "GET /disclaimer"), "GET /disclaimer");
    assertOk(await(service.get("/account/7"), "GET /account/7"), "GET /account/7");
    Future<HttpResponse<Buffer>> rating = service.get("/rating/ACME");
    ratings.call(0).open("A");
    assertOk(await(rating, "GET /rating/ACME"), "GET /rating/ACME");
    assertOk(await(service.get("/primes?below=1000"), "GET /primes?below=1000"), "GET /primes?below=1000");

    service.client.close();
    ShutdownCheck.assertCleanUndeploy(vertx, service.deploymentId);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // The service under test, and the fakes it is deployed with.

  /** A deployed service and a client to call it with. */
  private record Service(String deploymentId, int port, WebClient client, Path disclaimerFile) {
    Future<HttpResponse<Buffer>> get(String path) {
      return client.get(port, "127.0.0.1", path).send();
    }
  }

  private Service deploy(Vertx vertx, PriceFeed feed, LegacyAccounts accounts, RatingService ratings)
      throws IOException {
    Path file = Files.writeString(dir.resolve("disclaimer.txt"), DISCLAIMER);
    QuoteVerticle verticle = new QuoteVerticle(feed, file, accounts, ratings);
    String id = await(vertx.deployVerticle(verticle), "deploying QuoteVerticle");
    return new Service(id, verticle.actualPort(), WebClient.create(vertx), file);
  }

  private static LegacyAccounts noAccounts() {
    return id -> {
      throw new IllegalStateException("this test does not expect a call to the legacy account system");
    };
  }

  /** Fails the first {@code failures} calls, then answers {@code price}; remembers when each call came. */
  private static final class FlakyFeed implements PriceFeed {
    private final int failures;
    private final double price;
    private final List<Long> callTimes = new ArrayList<>();

    FlakyFeed(int failures, double price) {
      this.failures = failures;
      this.price = price;
    }

    @Override
    public synchronized Future<Double> price(String symbol) {
      callTimes.add(System.nanoTime());
      if (callTimes.size() <= failures) {
        return Future.failedFuture(new IOException("price feed hiccup #" + callTimes.size()));
      }
      return Future.succeededFuture(price);
    }

    synchronized List<Long> callTimes() {
      return List.copyOf(callTimes);
    }
  }

  /**
   * A legacy client that really blocks: each call waits on a latch until the test releases it, as a socket read
   * waits for a slow server. On an event loop, that wait is what the guard catches.
   */
  private static final class HeldAccounts implements LegacyAccounts {
    final CountDownLatch entered = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    private final String owner;

    HeldAccounts(String owner) {
      this.owner = owner;
    }

    @Override
    public String ownerOf(String accountId) {
      entered.countDown();
      try {
        if (!release.await(ANSWER_SECONDS, TimeUnit.SECONDS)) {
          throw new IllegalStateException("the test never released the legacy call");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for the old server", e);
      }
      return owner;
    }
  }

  /** A legacy client that takes a few milliseconds to answer, blocking its caller the whole time. */
  private static final class SlowAccounts implements LegacyAccounts {
    @Override
    public String ownerOf(String accountId) {
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
      return "Grace Hopper";
    }
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Waiting and checking, with messages that say what was expected, what came, and why it matters.

  private static <T> T await(Future<T> future, String what) {
    try {
      return future.toCompletionStage().toCompletableFuture().get(ANSWER_SECONDS, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      throw new AssertionError(what + ": no answer within " + ANSWER_SECONDS + " s. Something the request waits "
          + "for never completes: a future nobody completes, or a loop that is stuck.");
    } catch (ExecutionException e) {
      throw new AssertionError(what + " failed: " + e.getCause(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(what + ": interrupted", e);
    }
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
    if (!expected.equals(got)) {
      fail(request + ": expected 200 with " + expected.encode() + ", got " + describe(answer) + ". " + why);
    }
  }

  private static void assertText(HttpResponse<Buffer> answer, String request, String expected, String why) {
    if (answer.statusCode() != 200 || !expected.equals(answer.bodyAsString())) {
      fail(request + ": expected 200 with \"" + expected.strip() + "\", got " + describe(answer) + ". " + why);
    }
  }

  private static void assertOk(HttpResponse<Buffer> answer, String request) {
    if (answer.statusCode() != 200) {
      fail(request + ": expected 200, got " + describe(answer) + ". The shutdown check first calls each endpoint "
          + "once, so that whatever it sets up exists; every endpoint must work for it to start.");
    }
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
