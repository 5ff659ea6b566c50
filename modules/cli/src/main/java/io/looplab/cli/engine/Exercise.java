package io.looplab.cli.engine;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * One exercise of the kit, as described by its folder: {@code exercise.json} (id, title, time limit, any extra
 * options for its test JVM, and the "given" files under {@code src/main/java} that the learner uses but does not
 * change: files, or folders ending in "/"; the Java version its tests need to run, "minimumJava", 17 unless said),
 * the graded tests under {@code src/test/java}, the hints, and the class
 * path file Maven wrote for it.
 */
public record Exercise(String id, String title, Path dir, int timeoutSeconds, List<String> jvmOptions,
                       List<String> given, int minimumJava) {

  static final int DEFAULT_TIMEOUT_SECONDS = 90;

  static Exercise load(Path dir) {
    Path descriptor = dir.resolve("exercise.json");
    try {
      JsonObject json = new JsonObject(Files.readString(descriptor));
      String id = dir.getFileName().toString();
      List<String> options = json.getJsonArray("jvmOptions", new JsonArray()).stream().map(Object::toString).toList();
      List<String> given = json.getJsonArray("given", new JsonArray()).stream().map(Object::toString).toList();
      return new Exercise(id, json.getString("title", id), dir,
          json.getInteger("timeoutSeconds", DEFAULT_TIMEOUT_SECONDS), options, given,
          json.getInteger("minimumJava", 17));
    } catch (IOException | DecodeException | ClassCastException e) {
      throw new UsageError("cannot read " + descriptor + ": " + e.getMessage());
    }
  }

  /** The java launcher its grading JVM runs on, if this machine has a JDK new enough (see {@link JavaRuntimes}). */
  public java.util.Optional<Path> java() {
    return JavaRuntimes.javaFor(minimumJava);
  }

  /** {@link #java()}, or a {@link UsageError} that names the JDK it needs; a caller checks {@link #runsHere()} first. */
  public Path launcher() {
    return java().orElseThrow(() -> new UsageError(JavaRuntimes.missing(this)));
  }

  /** Whether it can be graded here: a JDK new enough for it was found. */
  public boolean runsHere() {
    return java().isPresent();
  }

  /** Whether {@code relative} (a path under src/main/java, with "/") is one of the given files. */
  public boolean isGiven(String relative) {
    return given.stream().anyMatch(g -> g.endsWith("/") ? relative.startsWith(g) : relative.equals(g));
  }

  public Path testSources() {
    return dir.resolve("src/test/java");
  }

  public Path testResources() {
    return dir.resolve("src/test/resources");
  }

  public Path classpathFile() {
    return dir.resolve("target/lab-classpath.txt");
  }

  public Path hints() {
    return dir.resolve("hints.md");
  }
}
