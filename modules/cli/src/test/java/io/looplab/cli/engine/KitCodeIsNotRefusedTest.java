package io.looplab.cli.engine;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicContainer.dynamicContainer;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

/**
 * The forbidden-API check refuses none of the kit's own code: every exercise's stub, reference solution, alternative
 * and mutant is compiled as the grader compiles it and checked. A refusal here would be a false refusal of a learner
 * (a stub, an alternative) or a mutant refused instead of caught by its test. A variant's edited files alone are
 * compiled, against the solution's classes: the rest of it is the solution, checked already.
 *
 * <p>The exercises' class paths ({@code target/lab-classpath.txt}) are written when the exercises are built, after
 * this module; without them these tests are skipped, and the self-test (which grades every variant through the
 * check) is the proof.
 */
class KitCodeIsNotRefusedTest {

  private static final Path ROOT = kitRoot();
  private final SourceCompiler compiler = new SourceCompiler();

  @TempDir
  Path work;

  @TestFactory
  @DisplayName("no stub, solution, alternative or mutant of the kit is refused by the forbidden-API check")
  Stream<DynamicNode> kitCodeIsAccepted() throws IOException {
    try (Stream<Path> exercises = Files.list(ROOT.resolve("exercises"))) {
      return exercises.filter(Files::isDirectory).sorted().<DynamicNode>map(exercise -> {
        String id = exercise.getFileName().toString();
        return dynamicContainer(id, Stream.of(
            dynamicTest("stub", () -> assertAccepted(id + " stub", exercise.resolve("src/main/java"), List.of(),
                libraries(exercise))),
            dynamicContainer("solution and its variants", variantTests(id, exercise))));
      }).toList().stream();
    }
  }

  /** A handout has no solutions folder: then there is nothing here to check beyond the stub. */
  private Stream<DynamicNode> variantTests(String id, Path exercise) {
    Path solution = ROOT.resolve("solutions").resolve(id);
    if (!Files.isDirectory(solution)) {
      return Stream.of(dynamicTest("solution", () -> Assumptions.abort(solution + " is missing: a handout has no "
          + "solutions, so only the stub is checked")));
    }
    List<Path> libraries = libraries(exercise);
    Path solutionClasses = work.resolve(id + "-solution");
    List<DynamicNode> tests = new ArrayList<>();
    tests.add(dynamicTest("solution", () -> assertAccepted(id + " solution", solution.resolve("src/main/java"),
        List.of(), libraries, solutionClasses)));
    for (String kind : List.of("alternatives", "mutants")) {
      for (Path variant : jsonFiles(solution.resolve(kind))) {
        String name = kind + "/" + variant.getFileName().toString().replace(".json", "");
        tests.add(dynamicTest(name, () -> {
          Path edited = edit(solution.resolve("src/main/java"), variant, work.resolve(id + "-" + name));
          assertAccepted(id + " " + name, edited, List.of(solutionClasses), libraries,
              work.resolve(id + "-" + name + "-classes"));
        }));
      }
    }
    return tests.stream();
  }

  private void assertAccepted(String what, Path sources, List<Path> before, List<Path> libraries) {
    assertAccepted(what, sources, before, libraries, work.resolve(what.replaceAll("\\W+", "-")));
  }

  private void assertAccepted(String what, Path sources, List<Path> before, List<Path> libraries, Path classes) {
    List<Path> classPath = new ArrayList<>(before);
    classPath.addAll(libraries);
    SourceCompiler.Result compiled = compiler.compile(sources, null, classes, classPath);
    assertTrue(compiled.ok(), what + " must compile (as the self-test grades it): " + compiled.firstError());
    assertEquals(Optional.empty(), ForbiddenApiCheck.problemWith(classes, classPath), what + " is the kit's own "
        + "code and must not be refused: change ForbiddenApis (an allowed member, documented) or the code");
  }

  /** The exercise's class path; the test is skipped when the exercises are not built yet. */
  private static List<Path> libraries(Path exercise) {
    Path file = exercise.resolve("target/lab-classpath.txt");
    Assumptions.assumeTrue(Files.exists(file), file + " is missing (the exercises are built after this module): "
        + "the self-test checks every variant through the grading engine");
    try {
      return Stream.of(Files.readString(file).trim().split(File.pathSeparator)).filter(s -> !s.isBlank())
          .map(Path::of).toList();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Writes the variant's edited files, the solution's with each edit applied, under {@code into}. */
  private static Path edit(Path solutionSources, Path variant, Path into) throws IOException {
    JsonArray edits = new JsonObject(Files.readString(variant)).getJsonArray("edits", new JsonArray());
    for (int i = 0; i < edits.size(); i++) {
      JsonObject edit = edits.getJsonObject(i);
      Path file = into.resolve(edit.getString("file"));
      if (!Files.exists(file)) {
        Files.createDirectories(file.getParent());
        Files.copy(solutionSources.resolve(edit.getString("file")), file);
      }
      String text = Files.readString(file);
      String find = edit.getString("find");
      assertTrue(text.contains(find), variant + ": the text to find is not in " + edit.getString("file")
          + " (the self-test says the same, at more length)");
      Files.writeString(file, text.replace(find, edit.getString("replace")));
    }
    return into;
  }

  private static List<Path> jsonFiles(Path dir) {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(p -> p.toString().endsWith(".json")).sorted().toList();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** The kit's root folder (a handout's too, which has no solutions): this module's tests run in modules/cli. */
  private static Path kitRoot() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !(Files.isDirectory(dir.resolve("exercises")) && Files.isRegularFile(dir.resolve("lab")))) {
      dir = dir.getParent();
    }
    return dir;
  }
}
