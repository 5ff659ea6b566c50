package corpus.allowed_by_the_project;

import io.looplab.guard.GuardedVertxTest;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.Test;

@GuardedVertxTest(allowBlockingIn = "corpus.allowed_by_the_project.Service$Config#load")
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
