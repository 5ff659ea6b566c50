package corpus.timers_and_event_bus;

import io.looplab.guard.GuardedVertxTest;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.Test;

@GuardedVertxTest
class ServiceTest {
  @Test
  void answersLater(Vertx vertx, VertxTestContext test) {
    vertx.runOnContext(v -> Service.work(vertx).onComplete(test.succeedingThenComplete()));
  }
}
