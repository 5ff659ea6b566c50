package corpus.dns_lookup;

import io.looplab.guard.GuardedVertxTest;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.Test;

@GuardedVertxTest
class ServiceTest {
  @Test
  void runsOnTheEventLoop(Vertx vertx, VertxTestContext test) {
    vertx.runOnContext(v -> {
      try {
        Service.work();
        test.completeNow();
      } catch (Exception e) {
        test.failNow(e);
      }
    });
  }
}
