package startup;

import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** One trivial test with vertx-junit5 alone. */
@ExtendWith(VertxExtension.class)
class PlainTest {
  @Test
  void runsOnTheLoop(Vertx vertx, VertxTestContext test) {
    vertx.runOnContext(v -> test.completeNow());
  }
}
