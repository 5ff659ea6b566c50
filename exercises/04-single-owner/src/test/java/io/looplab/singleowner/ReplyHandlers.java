package io.looplab.singleowner;

import io.vertx.core.Vertx;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The reply handlers a Vert.x instance's event bus still holds: one per {@code request} whose answer has not come,
 * nor its timeout passed. Vert.x has no public view of them, so this reads the event bus's handler map by reflection;
 * should a future Vert.x rename it, {@link #pending} says so instead of passing.
 */
final class ReplyHandlers {

  private ReplyHandlers() {
  }

  /** One description per pending reply handler, such as "a reply handler waiting for lab.stock". */
  static List<String> pending(Vertx vertx) {
    List<String> pending = new ArrayList<>();
    try {
      Map<?, ?> handlers = (Map<?, ?>) field(vertx.eventBus(), "handlerMap");
      for (Object holders : handlers.values()) {
        for (Object holder : (Iterable<?>) holders) {
          Object registration = field(holder, "handler");
          if (registration.getClass().getSimpleName().equals("ReplyHandler")) {
            pending.add("a reply handler waiting for an answer from " + field(registration, "repliedAddress"));
          }
        }
      }
    } catch (ReflectiveOperationException | RuntimeException e) {
      pending.add("(the test could not list the event bus's reply handlers on this Vert.x version: " + e + ")");
    }
    return pending;
  }

  private static Object field(Object target, String name) throws ReflectiveOperationException {
    for (Class<?> c = target.getClass(); c != null; c = c.getSuperclass()) {
      try {
        Field field = c.getDeclaredField(name);
        field.setAccessible(true);
        return field.get(target);
      } catch (NoSuchFieldException e) {
        // look in the superclass
      }
    }
    throw new NoSuchFieldException(name + " in " + target.getClass().getName());
  }
}
