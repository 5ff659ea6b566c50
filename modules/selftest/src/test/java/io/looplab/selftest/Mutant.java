package io.looplab.selftest;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Stream;

/**
 * A catalogued mistake: the reference solution with one classic error put back, described as exact text edits in
 * {@code solutions/NN-slug/mutants/NAME.json}, with the test that must catch it and the words it must use.
 */
record Mutant(String exercise, String name, String description, String test, List<String> expect, JsonArray edits) {

  static Mutant load(Path file) throws IOException {
    JsonObject json = new JsonObject(Files.readString(file));
    String exercise = file.getParent().getParent().getFileName().toString();
    String name = file.getFileName().toString().replaceFirst("\\.json$", "");
    return new Mutant(exercise, name, json.getString("description", name), json.getString("test"),
        json.getJsonArray("expect", new JsonArray()).stream().map(Object::toString).toList(),
        json.getJsonArray("edits", new JsonArray()));
  }

  /** Writes the mutated solution as a submission folder: {@code into/NN-slug/src/main/java}. */
  void materialise(Path solutionSources, Path into) throws IOException {
    Path sources = into.resolve(exercise).resolve("src/main/java");
    try (Stream<Path> walk = Files.walk(solutionSources)) {
      for (Path p : walk.filter(Files::isRegularFile).toList()) {
        Path dest = sources.resolve(solutionSources.relativize(p).toString());
        Files.createDirectories(dest.getParent());
        Files.copy(p, dest, StandardCopyOption.REPLACE_EXISTING);
      }
    }
    for (int i = 0; i < edits.size(); i++) {
      JsonObject edit = edits.getJsonObject(i);
      Path file = sources.resolve(edit.getString("file"));
      String text = Files.readString(file);
      String find = edit.getString("find");
      int at = text.indexOf(find);
      if (at < 0 || text.indexOf(find, at + 1) >= 0) {
        throw new IllegalStateException("mutant " + exercise + "/" + name + ": the text to find occurs "
            + (at < 0 ? "nowhere" : "more than once") + " in " + edit.getString("file")
            + "; update the mutant to match the solution:\n" + find);
      }
      Files.writeString(file, text.substring(0, at) + edit.getString("replace") + text.substring(at + find.length()));
    }
  }
}
