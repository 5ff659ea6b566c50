package io.looplab.grader.internal.leaks;

import java.lang.reflect.Field;

/**
 * Reads a private field of a Vert.x internal object. Vert.x keeps its timers and local locks in maps with no public
 * view; the censuses read them this way, and say so plainly when a future Vert.x renames them.
 */
public final class Internals {

  private Internals() {
  }

  public static Object field(Object target, String name) throws ReflectiveOperationException {
    for (Class<?> c = target.getClass(); c != null; c = c.getSuperclass()) {
      try {
        Field f = c.getDeclaredField(name);
        f.setAccessible(true);
        return f.get(target);
      } catch (NoSuchFieldException ignored) {
        // look in the superclass
      }
    }
    throw new NoSuchFieldException(name);
  }
}
