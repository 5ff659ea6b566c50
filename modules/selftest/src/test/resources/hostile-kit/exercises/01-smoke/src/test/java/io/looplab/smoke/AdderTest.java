package io.looplab.smoke;
import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Points;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.*;
import static org.junit.jupiter.api.Assertions.*;
@GradedVertxTest
@io.vertx.junit5.Timeout(value = 10, timeUnit = java.util.concurrent.TimeUnit.SECONDS)
class AdderTest {
  @Test @Points(2) @DisplayName("adds two numbers") void adds() { assertEquals(5, Adder.add(2, 3), "2 + 3"); }
  @Test @Points(3) @DisplayName("handler does not block the loop") void handler(Vertx vertx, VertxTestContext ctx) {
    vertx.runOnContext(v -> { Adder.handler(); ctx.completeNow(); });
  }
}
