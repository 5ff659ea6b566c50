package io.looplab.grader.guard;

import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.List;
import java.util.Optional;

/**
 * What a project tells the guard about its own tests: how long a task may keep an event loop before it is a stall,
 * which packages besides the test's own hold its code (the code whose lines a report names, and whose blocking calls
 * fail a test), and which methods may block anyway. An extension that runs before the guard's {@code beforeAll}
 * hands them over with {@link #use}; the guard reads them as the test class starts. A test class without them gets
 * the guard's defaults.
 *
 * @param stallMillis      a task that keeps a loop this long is a stall; 0 for the guard's default (50 ms, or the
 *                         {@code looplab.stall.ms} system property)
 * @param ownPackages      packages (with the packages below them) whose classes count as the project's code, besides
 *                         the test class's own package; a class loaded from where the test was loaded never does
 * @param allowedBlocking  methods allowed to block, each as {@code com.acme.Cache#load}: a blocking call made
 *                         inside one of them is let through
 */
public record GuardOptions(long stallMillis, List<String> ownPackages, List<String> allowedBlocking) {

  /** The guard's defaults: the test's own package, no allowed blocking, the default stall limit. */
  public static final GuardOptions DEFAULTS = new GuardOptions(0, List.of(), List.of());

  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(GuardOptions.class);

  public GuardOptions {
    if (stallMillis < 0) {
      throw new IllegalArgumentException("the stall limit must be 0 (the default) or more milliseconds, not "
          + stallMillis);
    }
    ownPackages = List.copyOf(ownPackages);
    allowedBlocking = List.copyOf(allowedBlocking);
    for (String method : allowedBlocking) {
      int hash = method.indexOf('#');
      if (hash <= 0 || hash == method.length() - 1 || method.indexOf('#', hash + 1) >= 0) {
        throw new IllegalArgumentException("an allowed blocking method is written class#method, as in "
            + "com.acme.Cache#load, not '" + method + "'");
      }
    }
  }

  /** Hands {@code options} to the guard of the test class that {@code context} belongs to. */
  public static void use(ExtensionContext context, GuardOptions options) {
    context.getStore(NAMESPACE).put(GuardOptions.class, options);
  }

  /** The options handed over for the test class of {@code context} (or an enclosing one), if any. */
  public static Optional<GuardOptions> of(ExtensionContext context) {
    return Optional.ofNullable(context.getStore(NAMESPACE).get(GuardOptions.class, GuardOptions.class));
  }

  /** Whether a frame of {@code className}'s method {@code methodName} is one the project allowed to block. */
  public boolean allowsBlockingIn(String className, String methodName) {
    if (allowedBlocking.isEmpty()) {
      return false;
    }
    return allowedBlocking.contains(className + "#" + methodName);
  }
}
