package io.looplab.offload;

import io.looplab.grader.testkit.Await;
import io.looplab.grader.testkit.DeployedService;
import io.looplab.vendor.Pbkdf2PasswordHasher;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.opentest4j.AssertionFailedError;

import java.time.Duration;

import static io.looplab.grader.testkit.Checks.require;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What every test of AccountsVerticle starts from: the verticle deployed with a {@link RecordingHasher} around the
 * real hasher and a {@link HeldDirectory} whose every call waits for the test, a client to call it with, and the
 * checks of an answer. A test class registers one with {@code @RegisterExtension} on an instance field, so that each
 * test gets fakes of its own, and whatever a test left held is let go after it.
 */
final class AccountsScene implements AfterEachCallback {

  /**
   * How long the test waits for something a correct solution does in a few milliseconds: a call reaching the
   * directory, a response arriving. Only a broken solution ever waits it out; a slow shared machine never comes near.
   */
  static final Duration WAIT = Duration.ofSeconds(5);

  /**
   * Hashes take about 100 ms each, several times that in a cold JVM: room for them on a busy machine. On 2 cores at a
   * load average of 20, the first hash of a cold JVM was seen to take longer than 20 s, so this is 40 s, and the tests
   * that wait for hashes get a JUnit time limit of {@link #HASHING_TEST_LIMIT_SECONDS} instead of the grader's 20 s.
   */
  static final Duration HASH_WAIT = Duration.ofSeconds(40);

  /** JUnit's time limit for the warm-up and for each test that waits for hashes: above {@link #HASH_WAIT}. */
  static final long HASHING_TEST_LIMIT_SECONDS = 60;

  final RecordingHasher hasher = new RecordingHasher(new Pbkdf2PasswordHasher());
  final HeldDirectory directory = new HeldDirectory();
  private DeployedService service;

  /** Deploys AccountsVerticle with this scene's hasher and directory. */
  DeployedService deploy(Vertx vertx) {
    // More connections than requests at once, so that the client never queues them itself.
    WebClient client = WebClient.create(vertx, new WebClientOptions(), new PoolOptions().setHttp1MaxSize(16));
    service = DeployedService.deploy(vertx, new AccountsVerticle(hasher, directory), AccountsVerticle::port, client,
        WAIT);
    require(service.port() > 0, "AccountsVerticle deployed, but port() returned " + service.port()
        + ": set it from the server's actualPort() before start()'s future completes.");
    return service;
  }

  Future<HttpResponse<Buffer>> lookUp(String userId) {
    return service.get("/users/" + userId);
  }

  Future<HttpResponse<Buffer>> hash(String password) {
    return service.post("/hash", new JsonObject().put("password", password));
  }

  /** Whatever the test left held, lets it finish, so that no worker thread is still parked when Vert.x closes. */
  @Override
  public void afterEach(ExtensionContext context) {
    directory.answerAll();
    hasher.releaseAll();
  }

  /** Checks the answer to a lookup the directory answered: 200, with that user's id and name. */
  void assertAnswered(Future<HttpResponse<Buffer>> request, String userId, String when) {
    HttpResponse<Buffer> response = Await.result(request, WAIT, "The directory answered the lookup for "
        + userId + ", but GET /users/" + userId + " did not answer within " + Await.inWords(WAIT)
        + (when.isEmpty() ? "" : " " + when) + ". Answer each request as soon as its own lookup completes.");
    assertEquals(200, response.statusCode(), "GET /users/" + userId + " should answer 200 once the directory "
        + "answered; the body was: " + response.bodyAsString());
    JsonObject json = jsonOf(response, "GET /users/" + userId);
    assertEquals(new JsonObject().put("id", userId).put("name", HeldDirectory.nameOf(userId)), json,
        "GET /users/" + userId + " should answer with that user's id and the directory's name for them");
  }

  /** Checks the answer to a hash the test let finish: 200, with a hash of that very password. */
  void assertHashed(Future<HttpResponse<Buffer>> request, String password, String when) {
    HttpResponse<Buffer> response = Await.result(request, HASH_WAIT, "The test let the hash of \"" + password
        + "\" finish, but POST /hash did not answer within " + Await.inWords(HASH_WAIT) + (when.isEmpty() ? ""
        : " " + when) + ". Answer each request as soon as its own hash completes.");
    assertEquals(200, response.statusCode(), "POST /hash should answer 200; the body was: " + response.bodyAsString());
    String hash = jsonOf(response, "POST /hash").getString("hash");
    require(hash != null && hasher.verify(password, hash), "POST /hash for \"" + password + "\" answered "
        + response.bodyAsString() + ", which is not a hash of that password: each request must get its own hash.");
  }

  static JsonObject jsonOf(HttpResponse<Buffer> response, String request) {
    try {
      return response.bodyAsJsonObject();
    } catch (RuntimeException e) {
      throw new AssertionFailedError(request + " should answer a JSON object, but answered: "
          + response.bodyAsString());
    }
  }
}
