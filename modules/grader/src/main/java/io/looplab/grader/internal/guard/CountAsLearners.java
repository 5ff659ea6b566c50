package io.looplab.grader.internal.guard;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * For the grader library's own tests only: names the classes that stand for a learner's code. A graded exercise
 * never needs it, because the learner's classes are compiled apart from the tests and {@link CodeUnderTest} tells
 * them apart by where they were loaded from. The library's tests compile their misbehaving "learner" classes
 * together with the tests, in one folder, so they say which is which here.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface CountAsLearners {

  /** The classes (and their nested classes) to count as the learner's code. */
  Class<?>[] value();
}
