package io.looplab.grader.races;

import io.vertx.core.json.JsonArray;

import java.nio.charset.StandardCharsets;

/**
 * Inputs as real requests bring them: decoded afresh, so that every request holds String objects of its own. A test
 * that builds every request from the same String objects (a literal, or one JsonArray sent again and again, since
 * local event-bus delivery copies a JsonArray but not the Strings inside it) lets identity-based locking pass:
 * {@code synchronized (key)}, {@code key == other}, an {@code IdentityHashMap}. Decoded requests have equal keys that
 * are different objects, which is what such code gets wrong.
 */
public final class Fresh {

  private Fresh() {
  }

  /** A new String object equal to {@code text}, decoded from its UTF-8 bytes, as a request's field would be. */
  public static String copyOf(String text) {
    return new String(text.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
  }

  /** A new JsonArray with the same entries, each String among them a new object (see {@link #copyOf}). */
  public static JsonArray copyOf(JsonArray array) {
    JsonArray copy = new JsonArray();
    for (Object entry : array) {
      copy.add(entry instanceof String text ? copyOf(text) : entry);
    }
    return copy;
  }
}
