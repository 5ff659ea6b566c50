package io.looplab.cli.engine;

import com.sun.source.util.JavacTask;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Compiles a folder of Java sources in this JVM with the JDK's own compiler: much faster than starting Maven, and
 * a compile error becomes a result to report rather than a build that stops.
 */
final class SourceCompiler {

  /**
   * Whether it compiled, and if not the first error as {@code File.java:line: message}; when it did, the
   * {@link ApiFingerprint} of what it compiled.
   */
  record Result(boolean ok, String firstError, int errorCount, String api) {
  }

  private final JavaCompiler javac = ToolProvider.getSystemJavaCompiler();

  /**
   * One file manager per thread, kept open: it caches the library jars it has opened and indexed, which is most of
   * what a compile costs here (the libraries are dozens of jars; the code is a few files). javac's file managers are
   * not thread-safe, hence one per thread.
   */
  private static final ThreadLocal<StandardJavaFileManager> FILE_MANAGERS = new ThreadLocal<>();

  SourceCompiler() {
    if (javac == null) {
      throw new UsageError("this Java has no compiler (a JRE?): run lab with a JDK 17 or newer");
    }
  }

  Result compile(Path sources, Path resources, Path output, List<Path> classpath) {
    try {
      Files.createDirectories(output);
      List<Path> files;
      try (Stream<Path> walk = Files.walk(sources)) {
        files = walk.filter(p -> p.toString().endsWith(".java")).sorted().toList();
      }
      if (files.isEmpty()) {
        return new Result(false, "no .java files in " + sources, 1, null);
      }
      DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
      StandardJavaFileManager fm = fileManager();
      List<String> options = List.of("-d", output.toString(), "-g", "-proc:none", "-encoding", "UTF-8",
          "--release", "17", "-nowarn", "-Xlint:none", "-classpath",
          classpath.stream().map(Path::toString).collect(Collectors.joining(java.io.File.pathSeparator)));
      JavacTask task = (JavacTask) javac.getTask(new StringWriter(), fm, diagnostics, options, null,
          fm.getJavaFileObjectsFromPaths(files));
      ApiFingerprint api = new ApiFingerprint();
      task.addTaskListener(api);
      boolean ok = task.call();
      copyResources(resources, output);
      List<Diagnostic<? extends JavaFileObject>> errors = diagnostics.getDiagnostics().stream()
          .filter(d -> d.getKind() == Diagnostic.Kind.ERROR).toList();
      return new Result(ok, errors.isEmpty() ? null : describe(errors.get(0)), errors.size(), ok ? api.digest() : null);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private StandardJavaFileManager fileManager() {
    StandardJavaFileManager fm = FILE_MANAGERS.get();
    if (fm == null) {
      fm = javac.getStandardFileManager(null, Locale.ENGLISH, StandardCharsets.UTF_8);
      FILE_MANAGERS.set(fm);
    }
    return fm;
  }

  private static String describe(Diagnostic<? extends JavaFileObject> d) {
    String file = d.getSource() == null ? "?" : Path.of(d.getSource().toUri()).getFileName().toString();
    return file + ":" + d.getLineNumber() + ": " + d.getMessage(Locale.ENGLISH).lines().findFirst().orElse("");
  }

  private static void copyResources(Path resources, Path output) throws IOException {
    if (resources == null || !Files.isDirectory(resources)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(resources)) {
      for (Path p : walk.filter(Files::isRegularFile).toList()) {
        Path dest = output.resolve(resources.relativize(p).toString());
        Files.createDirectories(dest.getParent());
        Files.copy(p, dest, StandardCopyOption.REPLACE_EXISTING);
      }
    }
  }
}
