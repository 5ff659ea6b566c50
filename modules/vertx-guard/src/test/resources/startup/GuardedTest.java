package startup;

import io.looplab.guard.GuardedVertxTest;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.Test;

/** The same test under the guard. */
@GuardedVertxTest
class GuardedTest {
  @Test
  void runsOnTheLoop(Vertx vertx, VertxTestContext test) {
    vertx.runOnContext(v -> test.completeNow());
  }
}
