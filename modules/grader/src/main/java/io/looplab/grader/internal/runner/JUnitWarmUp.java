package io.looplab.grader.internal.runner;

import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/**
 * A test that a grading JVM started ahead runs on itself while it waits: JUnit's engine, its method ordering and
 * display names, and vertx-junit5's parameters are then loaded before the graded tests start, which saves a check
 * a few hundred milliseconds. Nothing here is graded: the scoring listener writes no report for a run without a
 * report file, and the graded run discovers only the exercise's own test folder.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@ExtendWith(VertxExtension.class)
public final class JUnitWarmUp {

  @Test
  @Order(1)
  @DisplayName("a Vert.x test runs to its end")
  void aVertxTestRuns(Vertx vertx, VertxTestContext test) {
    vertx.setTimer(1, id -> test.completeNow());
  }

  /** Runs this class's test with {@code launcher}; whatever happens is not graded. */
  static void run(Launcher launcher) {
    try {
      launcher.execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(JUnitWarmUp.class)).build());
    } catch (RuntimeException | LinkageError e) {
      // not graded: the graded run meets any such problem again and reports it
    }
  }
}
