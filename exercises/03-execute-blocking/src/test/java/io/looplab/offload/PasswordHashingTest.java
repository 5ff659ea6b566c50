package io.looplab.offload;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Points;
import io.looplab.grader.guard.GivenCode;
import io.looplab.grader.probe.LoopCpu;
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
import java.util.concurrent.TimeUnit;

import static io.looplab.grader.testkit.Checks.require;
import static io.looplab.offload.AccountsScene.HASHING_TEST_LIMIT_SECONDS;
import static io.looplab.offload.AccountsScene.HASH_WAIT;
import static io.looplab.offload.AccountsScene.WAIT;
import static io.looplab.offload.AccountsScene.jsonOf;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Grades POST /hash of AccountsVerticle on a real event loop: the hash is right, it is computed on a worker thread,
 * the loops stay responsive while several run, and two hashes run side by side. The hasher is the real one, watched
 * by a {@link RecordingHasher}: it notes every hash asked for on an event loop, and one test holds each hash until it
 * lets it finish, to see two in progress at once. The guard fails any test whose code blocks or stalls an event loop.
 */
@GradedVertxTest
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@GivenCode(value = LegacyDirectory.class, is = "the directory's synchronous client: it blocks until the directory answers")
@GivenCode(value = PasswordHasher.class, is = "about 100 ms of CPU per call")
@Order(1)
@DisplayName("03 executeBlocking: hash passwords without freezing the event loop")
class PasswordHashingTest {

  /** Password hashes requested at once in the lag test: more than the machine has cores. */
  private static final int CONCURRENT_HASHES = 4;

  @RegisterExtension
  final AccountsScene scene = new AccountsScene();
  private final RecordingHasher hasher = scene.hasher;

  /** Runs the Vert.x Web path this exercise uses once, before any graded test: see {@link WarmUp}. */
  @BeforeAll
  @org.junit.jupiter.api.Timeout(value = HASHING_TEST_LIMIT_SECONDS, unit = TimeUnit.SECONDS)
  static void warmUpTheJvm() {
    WarmUp.jvm(WarmUp::webRoundTrip);
  }

  @Test
  @Order(1)
  @Points(3)
  @DisplayName("POST /hash answers 200 with a hash of the password that verifies, computed off the event loop")
  @org.junit.jupiter.api.Timeout(value = HASHING_TEST_LIMIT_SECONDS, unit = TimeUnit.SECONDS)
  void hashEndpointAnswersWithAVerifiableHash(Vertx vertx) {
    scene.deploy(vertx);

    HttpResponse<Buffer> response = Await.result(scene.hash("correct horse battery staple"), HASH_WAIT,
        "POST /hash did not answer within " + Await.inWords(HASH_WAIT) + ". Once the hash is computed on a worker "
            + "thread, answer the request when the future that executeBlocking returns succeeds.");
    hasher.assertNeverOnEventLoop();

    assertEquals(200, response.statusCode(), "POST /hash should answer 200; the body was: " + response.bodyAsString());
    String hash = jsonOf(response, "POST /hash").getString("hash");
    require(hash != null && hasher.verify("correct horse battery staple", hash),
        "POST /hash answered " + response.bodyAsString() + ", but its \"hash\" is not a hash of the password sent. "
            + "Answer with the string that PasswordHasher.hash returns.");
  }

  @Test
  @Order(2)
  @Points(5)
  @DisplayName("while " + CONCURRENT_HASHES + " passwords are hashed at once, the event loops stay responsive")
  @org.junit.jupiter.api.Timeout(value = HASHING_TEST_LIMIT_SECONDS, unit = TimeUnit.SECONDS)
  void hashingKeepsEventLoopsResponsive(Vertx vertx) throws InterruptedException {
    scene.deploy(vertx);
    // The first hash loads and compiles the crypto code; its cost is the JVM's, not the solution's.
    Await.result(scene.hash("warm-up"), HASH_WAIT, "POST /hash did not answer within " + Await.inWords(HASH_WAIT)
        + ".");

    // What one hash costs, in CPU time: unlike wall time, a crowded machine does not stretch it.
    java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
    long cpuBefore = threads.getCurrentThreadCpuTime();
    hasher.delegate.hash("how much CPU does one take?");
    double hashCpuMillis = (threads.getCurrentThreadCpuTime() - cpuBefore) / 1e6;

    LoopCpu loops = LoopCpu.start(vertx, WAIT.toMillis());
    List<Future<HttpResponse<Buffer>>> requests = new ArrayList<>();
    for (int i = 0; i < CONCURRENT_HASHES; i++) {
      requests.add(scene.hash("password-" + i));
    }
    List<HttpResponse<Buffer>> responses = Await.results(requests, HASH_WAIT, CONCURRENT_HASHES + " concurrent POST "
        + "/hash requests were not all answered within " + Await.inWords(HASH_WAIT) + ".");
    LoopCpu.Reading cpu = loops.read();
    System.out.printf("[03 loops] %d hashes of %.0f ms of CPU each: %s%n", CONCURRENT_HASHES, hashCpuMillis, cpu);

    hasher.assertNeverOnEventLoop();
    for (HttpResponse<Buffer> response : responses) {
      assertEquals(200, response.statusCode(), "POST /hash should answer 200; the body was: " + response.bodyAsString());
    }
    // Judged by what the loops did, not by how late they answered: on a machine where every core is busy, a loop
    // that only starts the hashes and sends the answers still waits for a core (seen: p99 lag 207 ms for a correct
    // solution, two gradings side by side on 2 cores), while its CPU time stays a few milliseconds. A hash computed
    // on a loop puts a whole hash of CPU time on that loop. Nothing else wakes the loops meanwhile: a lag probe's
    // wake-ups alone cost them more than a hash over two seconds (see LoopCpu).
    require(cpu.busiestMillis() < hashCpuMillis, String.format("While %d passwords were hashed at once, one event "
        + "loop spent %.0f ms computing, and one hash is %.0f ms of CPU: at least one hash ran on an event loop "
        + "(%s). A loop that computes cannot answer anyone else: every hash must run on a worker thread, with the "
        + "loop only starting it and sending the answer.", CONCURRENT_HASHES, cpu.busiestMillis(), hashCpuMillis,
        cpu));
  }

  @Test
  @Order(3)
  @Points(4)
  @DisplayName("two passwords are hashed at the same time, on two worker threads: neither hash waits for the other")
  @org.junit.jupiter.api.Timeout(value = HASHING_TEST_LIMIT_SECONDS, unit = TimeUnit.SECONDS)
  void independentHashesRunSideBySide(Vertx vertx) {
    scene.deploy(vertx);
    hasher.holdEveryHash();

    Future<HttpResponse<Buffer>> first = scene.hash("first password");
    Future<HttpResponse<Buffer>> second = scene.hash("second password");
    if (!hasher.awaitInFlight(2, WAIT)) {
      int started = hasher.threads().size();
      throw new AssertionFailedError(started == 0
          ? "No hash started within " + Await.inWords(WAIT) + " of two POST /hash requests. Call hasher.hash on a "
              + "worker thread for each request."
          : "The hashes ran one at a time: the test held the first hash (on thread '" + hasher.threads().get(0)
              + "'), and after " + Await.inWords(WAIT) + " the second had still not started. Two passwords have "
              + "nothing to do with each other, so they should be hashed side by side, on two worker threads. "
              + "executeBlocking, on Vert.x or on a WorkerExecutor, is ordered by default: the tasks one context "
              + "submits run one after the other. Pass ordered=false, as in executeBlocking(() -> ..., false), and "
              + "give the pool more than one thread.");
    }

    // The second request is answered first: neither answer may wait for the other.
    hasher.release("second password");
    scene.assertHashed(second, "second password", "while the first hash was still in progress");
    hasher.release("first password");
    scene.assertHashed(first, "first password", "");
  }
}
