package io.looplab.grader.guard;

import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares, on a graded test class, a class of the exercise's package that the learner is given and must not
 * change: a client library, a computation, an interface the test implements with a fake. The guard then treats it as
 * it treats the JDK and the test's own fakes: never as the learner's code. A blocking call or a stall inside it is
 * reported at the learner's call into it, named after the type the learner calls ({@code LegacyAccounts.ownerOf}),
 * and described with {@link #is()}. Nested classes of a given class are given too.
 *
 * <pre>
 * &#64;GradedVertxTest
 * &#64;GivenCode(value = LegacyAccounts.class, is = "a synchronous client: it blocks until the old server answers")
 * &#64;GivenCode(value = Primes.class, is = "pure CPU work")
 * class QuoteServiceTest { ... }
 * </pre>
 *
 * <p>Classes outside the test's package (such as 03's {@code io.looplab.vendor}) are never the learner's code; this
 * annotation only gives them their words.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Repeatable(GivenCode.List.class)
public @interface GivenCode {

  /** The given class or interface. */
  Class<?> value();

  /** What a call into it is, in a learner's words, e.g. "a synchronous client: it blocks until the server answers". */
  String is() default "";

  /** The container of repeated {@link GivenCode} annotations. */
  @Retention(RetentionPolicy.RUNTIME)
  @Target(ElementType.TYPE)
  @interface List {
    GivenCode[] value();
  }
}
