package corpus.blocking_work_on_a_worker;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.file.Files;
import java.nio.file.Path;

public final class Service {
  public static Future<Integer> work(Vertx vertx) {
    return vertx.executeBlocking(() -> {
      Thread.sleep(20);
      return Files.readString(Path.of(System.getProperty("java.home"), "release")).length();
    }, false);
  }
}
