package io.looplab.cli.session;

import io.looplab.cli.TinyKit;
import io.looplab.cli.engine.Kit;
import io.looplab.cli.engine.Originals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The tiny kit with a first exercise that really grades: one test, which the stub fails and an answer of 42 passes,
 * compiled and run against the test JVM's own class path (JUnit and the grader, as Maven would list them).
 */
final class GradableKit {

  static final String ID = "01-first-steps";

  private GradableKit() {
  }

  static TinyKit create(Path root) throws IOException {
    TinyKit kit = TinyKit.create(root);
    Path exercise = kit.root().resolve("exercises").resolve(ID);
    Files.writeString(exercise.resolve("src/main/java/lab/Task.java"),
        "package lab;\n\npublic class Task {\n  public int answer() {\n    return 0; // TODO\n  }\n}\n");
    Files.writeString(exercise.resolve("src/test/java/lab/TaskTest.java"), "package lab;\n\n"
        + "import org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.assertEquals;\n\n"
        + "class TaskTest {\n  @Test\n  void answersFortyTwo() {\n"
        + "    assertEquals(42, new Task().answer(), \"the answer\");\n  }\n}\n");
    for (String id : TinyKit.IDS) {
      Path target = kit.root().resolve("exercises").resolve(id).resolve("target");
      Files.createDirectories(target);
      Files.writeString(target.resolve("lab-classpath.txt"), System.getProperty("java.class.path"));
    }
    Originals.record(Kit.at(kit.root()));
    return kit;
  }

  static void solve(TinyKit kit) throws IOException {
    Files.writeString(kit.root().resolve("exercises").resolve(ID).resolve("src/main/java/lab/Task.java"),
        "package lab;\n\npublic class Task {\n  public int answer() {\n    return 42;\n  }\n}\n");
  }
}
