package io.looplab.grader;

import io.looplab.grader.guard.EventLoopGuard;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * An ordinary vertx-junit5 test, watched by the {@link EventLoopGuard}: it fails when the code under test blocks
 * or stalls an event loop, or lets an exception escape to Vert.x. The guard comes first so that it wraps Vert.x's
 * own waiting for the {@code VertxTestContext}.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@ExtendWith(EventLoopGuard.class)
@ExtendWith(VertxExtension.class)
public @interface GradedVertxTest {
}
