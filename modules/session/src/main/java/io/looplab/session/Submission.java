package io.looplab.session;

import io.vertx.core.json.JsonObject;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/** A posted submission, checked: only files under exercises/NAME/src/main/, no "..", no absolute paths. */
record Submission(String id, Map<String, byte[]> files) {
  private static final Pattern ALLOWED = Pattern.compile("exercises/[A-Za-z0-9._-]+/src/main/[A-Za-z0-9._/-]+");

  static Submission parse(JsonObject json) {
    String id = LearnerResult.text(json, "id");
    LearnerResult.text(json, "kitVersion");
    if (!(json.getValue("files") instanceof JsonObject files) || files.isEmpty()) {
      throw new BadRequest(400, "The field \"files\" must be an object of paths to base64 contents.");
    }
    Map<String, byte[]> decoded = new LinkedHashMap<>();
    for (Map.Entry<String, Object> file : files) {
      String path = file.getKey();
      boolean dotted = false;
      for (String part : path.split("/")) {
        dotted |= part.equals("..") || part.equals(".") || part.isEmpty();
      }
      if (dotted || !ALLOWED.matcher(path).matches()) {
        throw new BadRequest(400, "A submission holds only files under exercises/*/src/main/; not " + path + ".");
      }
      if (!(file.getValue() instanceof String content)) {
        throw new BadRequest(400, "The content of " + path + " must be a base64 string.");
      }
      try {
        decoded.put(path, Base64.getDecoder().decode(content));
      } catch (IllegalArgumentException e) {
        throw new BadRequest(400, "The content of " + path + " is not base64.");
      }
    }
    return new Submission(id, decoded);
  }
}
