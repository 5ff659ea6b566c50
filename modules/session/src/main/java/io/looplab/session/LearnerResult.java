package io.looplab.session;

import io.looplab.report.Standing;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

/** One posted result, checked field by field: a missing or mistyped field is a 400 with its name. */
record LearnerResult(String id, String exercise, Standing standing, int points, int max, String at, JsonObject body) {

  static LearnerResult parse(String text) {
    JsonObject json;
    try {
      json = new JsonObject(text);
    } catch (DecodeException | ClassCastException e) {
      throw new BadRequest(400, "The body is not a JSON object.");
    }
    String standingWord = text(json, "standing");
    Standing standing;
    try {
      standing = Standing.of(standingWord);
    } catch (IllegalArgumentException e) {
      throw new BadRequest(400, "The field \"standing\" is not a standing: " + standingWord + ".");
    }
    text(json, "title");
    text(json, "status");
    text(json, "source");
    if (!(json.getValue("tests") instanceof io.vertx.core.json.JsonArray)) {
      throw new BadRequest(400, "The field \"tests\" must be a list.");
    }
    return new LearnerResult(text(json, "id"), text(json, "exercise"), standing, whole(json, "points"),
        whole(json, "max"), text(json, "at"), json);
  }

  static String text(JsonObject json, String field) {
    Object value = json.getValue(field);
    if (!(value instanceof String s) || s.isEmpty()) {
      throw new BadRequest(400, "The field \"" + field + "\" must be a non-empty string.");
    }
    return s;
  }

  private static int whole(JsonObject json, String field) {
    Object value = json.getValue(field);
    if (!(value instanceof Integer || value instanceof Long)) {
      throw new BadRequest(400, "The field \"" + field + "\" must be a whole number.");
    }
    return ((Number) value).intValue();
  }
}
