package io.looplab.offload;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Points;
import io.looplab.grader.guard.GivenCode;
import io.looplab.grader.leaks.WorkerPools;
import io.looplab.grader.testkit.Await;
import io.looplab.grader.testkit.WarmUp;
import io.looplab.vendor.LegacyDirectory;
import io.looplab.vendor.PasswordHasher;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.opentest4j.AssertionFailedError;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static io.looplab.grader.testkit.Checks.require;
import static io.looplab.offload.AccountsScene.HASHING_TEST_LIMIT_SECONDS;
import static io.looplab.offload.AccountsScene.WAIT;

/**
 * Grades GET /users/:id of AccountsVerticle on a real event loop: lookups run side by side, on a named worker pool
 * no bigger than the directory allows. The legacy directory is a {@link HeldDirectory}, whose every call blocks
 * until this test answers it, so "two calls at once" and "a fifth call waits for a free thread" are seen happening,
 * never guessed from timings. The guard fails any test whose code blocks or stalls an event loop.
 */
@GradedVertxTest
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@GivenCode(value = LegacyDirectory.class, is = "the directory's synchronous client: it blocks until the directory answers")
@GivenCode(value = PasswordHasher.class, is = "about 100 ms of CPU per call")
@Order(2)
@DisplayName("03 executeBlocking: call a blocking client on a bounded pool of its own")
class DirectoryLookupsTest {

  @RegisterExtension
  final AccountsScene scene = new AccountsScene();
  private final HeldDirectory directory = scene.directory;

  /** Runs the Vert.x Web path this exercise uses once, before any graded test: see {@link WarmUp}. */
  @BeforeAll
  @org.junit.jupiter.api.Timeout(value = HASHING_TEST_LIMIT_SECONDS, unit = TimeUnit.SECONDS)
  static void warmUpTheJvm() {
    WarmUp.jvm(WarmUp::webRoundTrip);
  }

  @Test
  @Order(4)
  @Points(6)
  @DisplayName("lookups for two different users run at the same time, and each gets its own answer")
  void independentLookupsRunInParallel(Vertx vertx) {
    scene.deploy(vertx);

    Future<HttpResponse<Buffer>> ada = scene.lookUp("ada");
    Future<HttpResponse<Buffer>> bob = scene.lookUp("bob");
    if (!directory.awaitInFlight(2, WAIT)) {
      int started = directory.threads().size();
      throw new AssertionFailedError(started == 0
          ? "No lookup reached the legacy directory within " + Await.inWords(WAIT) + " of GET /users/ada and "
              + "GET /users/bob. Call directory.displayName on a worker thread for each request."
          : "The lookups ran one at a time: the test held the directory's answer to the first call, and after "
              + Await.inWords(WAIT) + " the second lookup had still not started. They are independent, so they should "
              + "run side by side. executeBlocking, on Vert.x or on a WorkerExecutor, is ordered by default: the "
              + "tasks one context submits run one after the other. Pass ordered=false, as in "
              + "executeBlocking(() -> ..., false), and give the pool more than one thread.");
    }

    // The second caller is answered first: neither answer may wait for the other.
    directory.answer("bob");
    scene.assertAnswered(bob, "bob", "while the lookup for ada was still in progress");
    directory.answer("ada");
    scene.assertAnswered(ada, "ada", "");
  }

  @Test
  @Order(5)
  @Points(5)
  @DisplayName("lookups run on a named worker pool of at most " + LegacyDirectory.MAX_CONNECTIONS + " threads; "
      + "extra lookups wait for a free thread and are all answered")
  void lookupsRunOnANamedBoundedPool(Vertx vertx) {
    scene.deploy(vertx);
    int requests = LegacyDirectory.MAX_CONNECTIONS + 2;

    List<String> users = new ArrayList<>();
    List<Future<HttpResponse<Buffer>>> responses = new ArrayList<>();
    for (int i = 1; i <= requests; i++) {
      users.add("user" + i);
      responses.add(scene.lookUp("user" + i));
    }
    if (!directory.awaitInFlight(1, WAIT)) {
      throw new AssertionFailedError("No lookup reached the legacy directory within " + Await.inWords(WAIT) + " of "
          + requests + " GET /users/... requests. Call directory.displayName on a worker thread for each request.");
    }
    String firstThread = directory.threads().get(0);
    Map<String, Integer> pools = WorkerPools.open(vertx);
    String pool = poolOfThread(firstThread, pools).orElseThrow(() -> new AssertionFailedError(
        firstThread.startsWith("vert.x-worker-thread-")
            ? "The lookup ran on Vert.x's shared worker pool (thread '" + firstThread + "'). Every verticle's "
                + "executeBlocking uses that pool, so a slow directory could hold all of its threads and stall "
                + "everything else, while the directory itself refuses more than " + LegacyDirectory.MAX_CONNECTIONS
                + " calls at once. Give the directory a pool of its own, named and bounded: "
                + "vertx.createSharedWorkerExecutor(\"legacy-directory\", LegacyDirectory.MAX_CONNECTIONS)."
            : "The lookup ran on the thread '" + firstThread + "', which belongs to none of the Vert.x worker pools "
                + "open now " + pools + ". Create the directory's pool with vertx.createSharedWorkerExecutor(name, "
                + "size), so that Vert.x names its threads after it, bounds it, and closes it with the verticle."));
    int size = pools.get(pool);
    require(size <= LegacyDirectory.MAX_CONNECTIONS, "The directory's pool '" + pool + "' has " + size
        + " threads, but the directory accepts at most " + LegacyDirectory.MAX_CONNECTIONS + " calls at once: size "
        + "it to LegacyDirectory.MAX_CONNECTIONS, so that no call is refused.");

    // Fill the pool, then answer one call at a time: each answer frees a thread for a lookup that was waiting.
    // A pool of `size` threads can never run more than `size` lookups at once, so none of this depends on timing.
    if (!directory.awaitInFlight(Math.min(size, requests), WAIT)) {
      throw new AssertionFailedError("The pool '" + pool + "' has " + size + " threads, but after "
          + Await.inWords(WAIT) + " only " + directory.inFlight().size() + " of " + requests + " lookups were in "
          + "progress together. Pass ordered=false to executeBlocking, so that independent lookups do not queue behind "
          + "each other.");
    }
    for (int i = 0; i < requests; i++) {
      String next = directory.awaitUnansweredCall(WAIT).orElseThrow(() -> new AssertionFailedError(
          "After some lookups were answered, the waiting ones did not reach the directory within "
              + Await.inWords(WAIT) + " (" + directory.threads().size() + " of " + requests + " started). A lookup "
              + "that finds every thread of the pool busy must wait for one, not be dropped."));
      directory.answer(next);
    }
    for (int i = 0; i < requests; i++) {
      scene.assertAnswered(responses.get(i), users.get(i), "");
    }
    directory.refusal().ifPresent(refusal -> {
      throw new AssertionFailedError("The directory refused a call: " + refusal + ". It accepts at most "
          + LegacyDirectory.MAX_CONNECTIONS + " calls at once; the pool in front of it must be no bigger.");
    });
    for (String thread : directory.threads()) {
      require(thread.startsWith(pool + "-"), "Every lookup should run on the directory's pool '" + pool
          + "', but one ran on the thread '" + thread + "'. Send every lookup through the same pool.");
    }
  }

  /** The Vert.x worker pool whose threads are named like {@code thread}: Vert.x names them {@code <pool>-<n>}. */
  private static Optional<String> poolOfThread(String thread, Map<String, Integer> pools) {
    Predicate<String> owns = pool -> thread.startsWith(pool + "-")
        && thread.substring(pool.length() + 1).chars().allMatch(Character::isDigit);
    return pools.keySet().stream().filter(owns).findFirst();
  }
}
