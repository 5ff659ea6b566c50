package io.looplab.selftest;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The reference solution with exact text edits applied, described in {@code solutions/NN-slug/<kind>/NAME.json}:
 * <ul>
 *   <li>a mutant ({@code mutants/}) puts one classic mistake back, and names the test that must catch it and the
 *       words that test's message must use;</li>
 *   <li>an alternative ({@code alternatives/}) is another correct design, which must get full marks.</li>
 * </ul>
 * Edits keep a variant small, and break loudly when the solution changes under it.
 */
record Variant(String exercise, Kind kind, String name, String description, String test, List<String> expect,
               JsonArray edits) {

  enum Kind {
    MUTANT("mutants"), ALTERNATIVE("alternatives");

    final String folder;

    Kind(String folder) {
      this.folder = folder;
    }
  }

  static Variant load(Path file, Kind kind) throws IOException {
    JsonObject json = new JsonObject(Files.readString(file));
    String exercise = file.getParent().getParent().getFileName().toString();
    String name = file.getFileName().toString().replaceFirst("\\.json$", "");
    if (kind == Kind.MUTANT && json.getString("test") == null) {
      throw new IllegalStateException(file + ": a mutant names the test that must catch it (\"test\")");
    }
    return new Variant(exercise, kind, name, json.getString("description", name), json.getString("test"),
        json.getJsonArray("expect", new JsonArray()).stream().map(Object::toString).toList(),
        json.getJsonArray("edits", new JsonArray()));
  }

  /** Every variant of this kind for one exercise, by name. */
  static List<Variant> of(Path solution, Kind kind) throws IOException {
    Path dir = solution.resolve(kind.folder);
    List<Variant> all = new ArrayList<>();
    if (Files.isDirectory(dir)) {
      try (Stream<Path> files = Files.list(dir)) {
        for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
          all.add(load(f, kind));
        }
      }
    }
    return all;
  }

  /** "mutant 09-lost-update/no-lock", the grading's name in {@link Gradings}. */
  String label() {
    return kind.name().toLowerCase() + " " + exercise + "/" + name;
  }

  /** Writes the edited solution as a submission folder: {@code into/NN-slug/src/main/java}. */
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
        throw new IllegalStateException(kind.name().toLowerCase() + " " + exercise + "/" + name
            + ": the text to find occurs " + (at < 0 ? "nowhere" : "more than once") + " in " + edit.getString("file")
            + "; update it to match the solution:\n" + find);
      }
      Files.writeString(file, text.substring(0, at) + edit.getString("replace") + text.substring(at + find.length()));
    }
  }
}
