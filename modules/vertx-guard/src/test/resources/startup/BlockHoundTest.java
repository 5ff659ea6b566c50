package startup;

import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.blockhound.BlockHound;

/** The same test with BlockHound installed by hand (Netty's integration marks Vert.x's loops). */
@ExtendWith(VertxExtension.class)
class BlockHoundTest {
  @BeforeAll
  static void install() {
    BlockHound.install();
  }

  @Test
  void runsOnTheLoop(Vertx vertx, VertxTestContext test) {
    vertx.runOnContext(v -> test.completeNow());
  }
}
