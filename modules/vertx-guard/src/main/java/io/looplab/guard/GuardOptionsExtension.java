package io.looplab.guard;

import io.looplab.grader.guard.GuardOptions;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

import java.util.List;

/**
 * Hands what a test class's {@link GuardedVertxTest} says to the guard, which registers after it and so reads it
 * in its own {@code beforeAll}. A value the guard cannot use fails the class at once, with what was wrong.
 */
public final class GuardOptionsExtension implements BeforeAllCallback {

  @Override
  public void beforeAll(ExtensionContext context) {
    GuardedVertxTest guarded = AnnotationSupport.findAnnotation(context.getRequiredTestClass(), GuardedVertxTest.class)
        .orElse(null);
    if (guarded == null) {
      return;
    }
    try {
      GuardOptions.use(context, new GuardOptions(guarded.stallMillis(), List.of(guarded.ownPackages()),
          List.of(guarded.allowBlockingIn())));
    } catch (IllegalArgumentException e) {
      throw new ExtensionConfigurationException("@GuardedVertxTest on " + context.getRequiredTestClass().getName()
          + ": " + e.getMessage());
    }
  }
}
