package corpus.timers_and_event_bus;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;

public final class Service {
  public static Future<String> work(Vertx vertx) {
    vertx.eventBus().consumer("corpus.ping", m -> m.reply("pong"));
    Promise<String> later = Promise.promise();
    vertx.setTimer(20, id -> vertx.eventBus().<String>request("corpus.ping", "ping")
        .onComplete(r -> later.handle(r.map(m -> m.body()))));
    return later.future();
  }
}
