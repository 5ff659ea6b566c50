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
   * Whether it compiled, and if not javac's errors, in its order; when it did, the {@link ApiFingerprint} of what it
   * compiled.
   */
  record Result(boolean ok, List<CompileError> errors, String api) {

    /** At most this many errors are shown: the first few are the ones to fix, and the later often follow from them. */
    static final int ERRORS_SHOWN = 5;
    /**
     * At most this many characters of errors are shown: with the words around them, a report's message stays under
     * MessageLimit's 1,500, so the count of the rest is never what gets cut.
     */
    static final int ERRORS_BUDGET = 1_200;

    Result {
      errors = List.copyOf(errors);
    }

    /** The first error's first line, {@code File.java:line:column: error: message}, or null when it compiled. */
    String firstError() {
      return errors.isEmpty() ? null : errors.get(0).header();
    }

    int errorCount() {
      return errors.size();
    }

    /**
     * The errors as javac gives them, with each one's column, source line and caret: "2 errors", then each one;
     * the first {@value #ERRORS_SHOWN} that fit in {@value #ERRORS_BUDGET} characters, then how many more there are.
     * Null when it compiled.
     */
    String errorsAsJavacGivesThem() {
      if (errors.isEmpty()) {
        return null;
      }
      StringBuilder text = new StringBuilder(errors.size() + (errors.size() == 1 ? " error" : " errors"));
      int shown = 0;
      for (CompileError error : errors) {
        String block = error.format();
        if (shown == ERRORS_SHOWN || (shown > 0 && text.length() + 1 + block.length() > ERRORS_BUDGET)) {
          break;
        }
        text.append('\n').append(block);
        shown++;
      }
      int rest = errors.size() - shown;
      if (rest > 0) {
        text.append("\n... and ").append(rest).append(" more error").append(rest == 1 ? "" : "s")
            .append(" (the first ones often cause the others: fix them and compile again)");
      }
      return text.toString();
    }
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
        return new Result(false, List.of(CompileError.of("no .java files in " + sources)), null);
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
      List<CompileError> errors = diagnostics.getDiagnostics().stream()
          .filter(d -> d.getKind() == Diagnostic.Kind.ERROR).map(SourceCompiler::describe).toList();
      return new Result(ok, errors, ok ? api.digest() : null);
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

  static CompileError describe(Diagnostic<? extends JavaFileObject> d) {
    String message = d.getMessage(Locale.ENGLISH);
    if (d.getSource() == null) {
      return CompileError.of(message);
    }
    String file = Path.of(d.getSource().toUri()).getFileName().toString();
    long line = Math.max(0, d.getLineNumber());
    long column = Math.max(0, d.getColumnNumber());
    String sourceLine = null;
    int caret = -1;
    if (d.getPosition() != Diagnostic.NOPOS) {
      try {
        // The line around the error's position, from the text javac read (the file as it was compiled).
        CharSequence content = d.getSource().getCharContent(true);
        int position = (int) Math.min(d.getPosition(), content.length());
        int start = position;
        while (start > 0 && content.charAt(start - 1) != '\n' && content.charAt(start - 1) != '\r') {
          start--;
        }
        int end = position;
        while (end < content.length() && content.charAt(end) != '\n' && content.charAt(end) != '\r') {
          end++;
        }
        sourceLine = content.subSequence(start, end).toString();
        caret = position - start;
      } catch (IOException e) {
        // the file went away since: the error without its line
      }
    }
    return new CompileError(file, line, column, message, sourceLine, caret);
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
