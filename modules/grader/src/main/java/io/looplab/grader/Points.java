package io.looplab.grader;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * How many points a graded test is worth. A test earns them all or none: a test factory or a parameterized test
 * earns them only when every one of its invocations passes. A test without this annotation is worth one point.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Points {
  int value();
}
