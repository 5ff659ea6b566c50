package io.looplab.guard;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Compiles sources as a project's build does, and runs one test class of them cold, in a JVM of its own. */
final class ColdRun {

  /** The flags a project puts in surefire's argLine, as docs/guard.md gives them. */
  static final List<String> FLAGS = List.of("-XX:+AllowRedefinitionToAddDeleteMethods",
      "-Djdk.attach.allowAttachSelf=true", "-XX:+IgnoreUnrecognizedVMOptions", "-XX:+EnableDynamicAgentLoading");
  /** Far beyond a case's few seconds, cold, at a load of 8 on 2 cores. */
  static final long LIMIT_SECONDS = 180;

  private ColdRun() {
  }

  /** What the JVM printed, its exit status (-1 if it had to be killed) and how long it took. */
  record Run(int exit, String output, long millis) {
    /** The lines {@link RunOneClass} printed, without its prefix. */
    List<String> verdicts() {
      return output.lines().filter(l -> l.startsWith(RunOneClass.PREFIX))
          .map(l -> l.substring(RunOneClass.PREFIX.length())).toList();
    }

    /** The CPU time the JVM said it used, in milliseconds. */
    OptionalLong cpuMillis() {
      return verdicts().stream().filter(v -> v.startsWith("cpu-ms ")).mapToLong(v -> Long.parseLong(v.substring(7)))
          .findFirst();
    }
  }

  static void compile(List<Path> sources, Path into, String classPath) throws IOException {
    Files.createDirectories(into);
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    List<String> args = new ArrayList<>(List.of("-d", into.toString(), "-cp", classPath, "-proc:none",
        "--release", "17"));
    sources.forEach(s -> args.add(s.toString()));
    ByteArrayOutputStream errors = new ByteArrayOutputStream();
    int exit = javac.run(null, errors, errors, args.toArray(String[]::new));
    assertEquals(0, exit, "does not compile:\n" + errors.toString(StandardCharsets.UTF_8));
  }

  /** Runs {@code testClass} cold: a fresh JVM with this JVM's class path, the two folders first, and FLAGS. */
  static Run run(String testClass, Path tests, Path main) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(FLAGS);
    command.addAll(List.of("-cp", tests + File.pathSeparator + main + File.pathSeparator
        + System.getProperty("java.class.path"), RunOneClass.class.getName(), testClass));
    long started = System.nanoTime();
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    ByteArrayOutputStream output = new ByteArrayOutputStream();
    Thread drain = new Thread(() -> {
      try {
        process.getInputStream().transferTo(output);
      } catch (IOException ignored) {
        // the process ended
      }
    });
    drain.start();
    if (!process.waitFor(LIMIT_SECONDS, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
    drain.join(10_000);
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    return new Run(process.isAlive() ? -1 : process.exitValue(), output.toString(StandardCharsets.UTF_8), millis);
  }
}
