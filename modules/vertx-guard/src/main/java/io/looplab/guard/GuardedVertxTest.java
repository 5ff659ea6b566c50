package io.looplab.guard;

import io.looplab.grader.internal.guard.EventLoopGuard;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A vertx-junit5 test class whose event loops are guarded: a test fails, at the line of your code that did it, when
 * that code blocks an event loop (any blocking call, caught at the call, however short), keeps one busy longer than
 * {@link #stallMillis()} (a stall), lets an exception escape to Vert.x, or touches a verticle's state from a thread
 * other than its context's. It replaces {@code @ExtendWith(VertxExtension.class)}: parameters of type {@code Vertx}
 * and {@code VertxTestContext} work as before.
 *
 * <pre>
 * &#64;GuardedVertxTest
 * class PriceServiceTest {
 *   &#64;Test
 *   void answersWithThePrice(Vertx vertx, VertxTestContext test) { ... }
 * }
 * </pre>
 *
 * <p>"Your code" is the test class's package and the packages below it, plus {@link #ownPackages()}, except what was
 * loaded from where the test class was (the test's own helpers and fakes): a blocking call inside Vert.x, Netty or a
 * library is yours only through a line of yours on the stack, and is named at that line. The JVM's first run of
 * library code (class loading and initialisation) is never counted against you, so a test needs no warm-up.
 *
 * <p>The JVM needs {@code -XX:+AllowRedefinitionToAddDeleteMethods -Djdk.attach.allowAttachSelf=true} (and, from JDK
 * 21, {@code -XX:+EnableDynamicAgentLoading}) in surefire's {@code argLine}; see docs/guard.md.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Inherited
@ExtendWith(GuardOptionsExtension.class)
@ExtendWith(EventLoopGuard.class)
@ExtendWith(VertxExtension.class)
public @interface GuardedVertxTest {

  /** A task that keeps an event loop this long (in milliseconds) is a stall; 0 means the guard's default, 50. */
  long stallMillis() default 0;

  /** Packages (and the packages below them) that hold your code, besides the test class's own. */
  String[] ownPackages() default {};

  /**
   * Methods allowed to block an event loop, each as {@code com.acme.Cache#load}: a blocking call made inside one of
   * them (at any depth) is let through. For a call you know to be harmless, such as a read of a small resource at
   * start-up; everything else belongs on a worker ({@code executeBlocking}).
   */
  String[] allowBlockingIn() default {};
}
