package corpus.await_a_vertx_future;

import io.vertx.core.Vertx;

public final class Service {
  public static String work(Vertx vertx) {
    return vertx.executeBlocking(() -> "answer").await(); // blocks here
  }
}
