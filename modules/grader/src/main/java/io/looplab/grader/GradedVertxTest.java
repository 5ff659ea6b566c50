package io.looplab.grader;

import io.looplab.grader.internal.guard.EventLoopGuard;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * An ordinary vertx-junit5 test, watched by the {@link EventLoopGuard}: it fails when the code under test blocks
 * or stalls an event loop, or lets an exception escape to Vert.x. The guard comes first so that it wraps Vert.x's
 * own waiting for the {@code VertxTestContext}. Tests run, and are reported, in the order of their {@code @Order}
 * annotations, so that a learner reads them in the order the exercise tells its story.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@ExtendWith(EventLoopGuard.class)
@ExtendWith(VertxExtension.class)
public @interface GradedVertxTest {
}
