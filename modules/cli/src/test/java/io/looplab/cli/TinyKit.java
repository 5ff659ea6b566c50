package io.looplab.cli;

import io.looplab.cli.engine.Kit;
import io.looplab.cli.engine.Originals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A kit of three tiny exercises in a git repository of its own, with recorded originals, for testing the commands
 * that read or change a learner's files. Nothing here compiles or grades: those commands never need to.
 */
public final class TinyKit {

  public static final List<String> IDS = List.of("01-first-steps", "02-blocking-calls", "03-execute-blocking");

  private final Path root;

  private TinyKit(Path root) {
    this.root = root;
  }

  public static TinyKit create(Path root) throws IOException {
    for (String id : IDS) {
      Path dir = root.resolve("exercises").resolve(id);
      write(dir.resolve("exercise.json"), "{\"id\": \"" + id + "\", \"title\": \"Exercise " + id + "\"}");
      write(dir.resolve("hints.md"), "## Hint 1\nLook.\n## Hint 2\nLook again.\n## Hint 3\nNearly.\n");
      write(dir.resolve("src/main/java/lab/Task.java"), "class Task {\n  // TODO: " + id + "\n}\n");
      write(dir.resolve("src/test/java/lab/TaskTest.java"), "class TaskTest {}\n");
      write(root.resolve("solutions").resolve(id).resolve("src/main/java/lab/Task.java"),
          "class Task {\n  int answer = 42;\n}\n");
    }
    git(root, "init", "-q");
    Originals.record(Kit.at(root));
    git(root, "add", "-A");
    git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "tiny kit");
    return new TinyKit(root);
  }

  public Path root() {
    return root;
  }

  public Path stub(String id) {
    return root.resolve("exercises").resolve(id).resolve("src/main/java/lab/Task.java");
  }

  /** Runs {@code lab args} on this kit with {@code stdin} as its input; what it printed and its exit status. */
  public Run lab(String stdin, String... args) {
    String home = io.looplab.grader.internal.settings.Settings.HOME.raw().orElse(null);
    PrintStream out = System.out;
    PrintStream err = System.err;
    InputStream in = System.in;
    ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    System.setProperty("looplab.home", root.toString());
    System.setProperty("picocli.ansi", "false");
    System.setOut(new PrintStream(outBytes, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(errBytes, true, StandardCharsets.UTF_8));
    System.setIn(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
    try {
      int status = Lab.execute(args);
      return new Run(status, outBytes.toString(StandardCharsets.UTF_8), errBytes.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(out);
      System.setErr(err);
      System.setIn(in);
      System.clearProperty("picocli.ansi");
      if (home == null) {
        System.clearProperty("looplab.home");
      } else {
        System.setProperty("looplab.home", home);
      }
    }
  }

  /** What one run of the CLI did. */
  public record Run(int status, String out, String err) {

    /** The whole of stderr, which for a bad input must be one line starting "lab: ". */
    public String errLine() {
      return err.strip();
    }
  }

  private static void write(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }

  private static void git(Path dir, String... args) throws IOException {
    List<String> command = new java.util.ArrayList<>(List.of("git"));
    command.addAll(List.of(args));
    try {
      Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
      String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (p.waitFor() != 0) {
        throw new IOException("git " + String.join(" ", args) + " failed: " + output);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }
}
