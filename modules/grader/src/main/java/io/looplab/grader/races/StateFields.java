package io.looplab.grader.races;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Where the code under test keeps its state: the fields of a class (and of its nested classes), with what each one
 * holds right now. Not for grading, which goes by behaviour, but for a failure message that must say what was
 * observed: "views were lost although the total is in a static AtomicLong" points at how the AtomicLong is used,
 * where "use an AtomicLong" would be a wrong guess.
 */
public final class StateFields {

  private StateFields() {
  }

  /** One field: its name, modifiers, declared type, and the class of what it held when it was looked at. */
  public record StateField(String owner, String name, boolean isStatic, boolean isVolatile, Class<?> declared,
                           Class<?> held) {

    /** The class of the value, or the declared type when the field is null, primitive or could not be read. */
    public Class<?> kind() {
      return held != null ? held : declared;
    }

    /** Whether the value is one of {@code types} (or a subtype). */
    public boolean holds(Class<?>... types) {
      for (Class<?> type : types) {
        if (type.isAssignableFrom(kind())) {
          return true;
        }
      }
      return false;
    }

    /** Whether the field itself is a number, as in {@code static long total}. */
    public boolean isPrimitiveNumber() {
      return declared == long.class || declared == int.class || declared == short.class || declared == double.class;
    }

    /** "the static volatile long field totalViews of PageStatsVerticle", "the field views (a HashMap) of ...". */
    public String describe() {
      String modifiers = (isStatic ? "static " : "") + (isVolatile ? "volatile " : "");
      return isPrimitiveNumber() ? "the " + modifiers + declared.getName() + " field " + name + " of " + owner
          : "the " + modifiers + "field " + name + " of " + owner + " (" + article(typeName()) + ")";
    }

    /** The value's class, unless it is a library's internal one (LocalMapImpl): then the declared type. */
    private String typeName() {
      Class<?> kind = kind();
      boolean internal = kind.getName().contains(".impl.") || kind.getSimpleName().endsWith("Impl")
          || kind.isAnonymousClass() || kind.isSynthetic();
      return (internal ? declared : kind).getSimpleName();
    }

    private static String article(String noun) {
      return ("AEIOU".indexOf(noun.isEmpty() ? 'x' : noun.charAt(0)) >= 0 ? "an " : "a ") + noun;
    }
  }

  /**
   * The fields of {@code type} and of its nested classes, leaving out constants (static final strings and
   * primitives) and synthetic fields. Instance fields are read from the first of {@code instances} that is of their
   * class, static fields from the class itself.
   */
  public static List<StateField> of(Class<?> type, List<?> instances) {
    List<StateField> fields = new ArrayList<>();
    collect(type, instances, fields);
    return fields;
  }

  /** The first field whose value is one of {@code types}. */
  public static Optional<StateField> holding(List<StateField> fields, Class<?>... types) {
    return fields.stream().filter(f -> f.holds(types)).findFirst();
  }

  private static void collect(Class<?> type, List<?> instances, List<StateField> out) {
    for (Field field : type.getDeclaredFields()) {
      int mod = field.getModifiers();
      boolean isStatic = Modifier.isStatic(mod);
      boolean constant = isStatic && Modifier.isFinal(mod)
          && (field.getType().isPrimitive() || field.getType() == String.class);
      if (field.isSynthetic() || constant) {
        continue;
      }
      Class<?> held = null;
      if (!field.getType().isPrimitive()) {
        Object target = isStatic ? null : instances.stream().filter(type::isInstance).findFirst().orElse(null);
        if (isStatic || target != null) {
          try {
            field.setAccessible(true);
            Object value = field.get(target);
            held = value == null ? null : value.getClass();
          } catch (ReflectiveOperationException | RuntimeException e) {
            held = null;
          }
        }
      }
      out.add(new StateField(type.getSimpleName(), field.getName(), isStatic, Modifier.isVolatile(mod),
          field.getType(), held));
    }
    for (Class<?> nested : type.getDeclaredClasses()) {
      collect(nested, instances, out);
    }
  }
}
