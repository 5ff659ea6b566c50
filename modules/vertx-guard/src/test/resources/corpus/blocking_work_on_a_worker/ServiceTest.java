package corpus.blocking_work_on_a_worker;

import io.looplab.guard.GuardedVertxTest;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.Test;

@GuardedVertxTest
class ServiceTest {
  @Test
  void offloads(Vertx vertx, VertxTestContext test) {
    vertx.runOnContext(v -> Service.work(vertx).onComplete(test.succeedingThenComplete()));
  }
}
