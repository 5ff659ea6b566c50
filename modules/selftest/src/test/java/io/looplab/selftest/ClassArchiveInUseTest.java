package io.looplab.selftest;

import io.looplab.cli.engine.ClassArchive;
import io.looplab.cli.engine.Exercise;
import io.looplab.cli.engine.Kit;
import io.looplab.grader.internal.runner.GradingJvm;
import io.looplab.grader.internal.scoring.VerdictFormat;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The kit's class archive (ClassArchive) on the real kit: made for an exercise, it holds library classes only, it is
 * made once, and a grading JVM started with it loads BlockHound's, Vert.x's and JUnit's classes from it, although
 * BlockHound's install turns the archive off for every class loaded after it, and gets BlockHound's class rewrites
 * back from the file made beside it.
 */
class ClassArchiveInUseTest {

  private static final String EXERCISE = "01-event-loop-threads";

  @TempDir
  static Path work;

  static Kit kit;
  static Exercise exercise;
  static ClassArchive archive;
  static List<Path> libraries;

  @BeforeAll
  static void makeTheArchive() throws IOException {
    kit = Kit.locate();
    exercise = kit.find(EXERCISE);
    libraries = new ArrayList<>();
    for (String entry : Files.readString(exercise.classpathFile()).trim().split(File.pathSeparator)) {
      libraries.add(Path.of(entry));
    }
    archive = ClassArchive.of(kit, exercise).orElse(null);
    if (archive == null) {
      try (var dirs = Files.list(kit.root().resolve("target/lab/class-archives"))) {
        StringBuilder why = new StringBuilder();
        for (Path dir : dirs.toList()) {
          Path whyNot = dir.resolve("why-not.txt");
          if (Files.exists(whyNot)) {
            why.append(dir.getFileName()).append(": ").append(Files.readString(whyNot));
          }
        }
        fail("no class archive was made for " + EXERCISE + " on this JDK: " + why);
      }
    }
  }

  @Test
  @DisplayName("the archive of 01 lists library classes only: each is an entry of one of the exercise's jars")
  void itHoldsLibraryClassesOnly() throws IOException {
    Set<String> entries = new HashSet<>();
    for (Path library : libraries) {
      try (JarFile jar = new JarFile(library.toFile())) {
        jar.stream().forEach(e -> entries.add(e.getName()));
      }
    }
    List<String> names = Files.readAllLines(archive.classList());
    assertTrue(names.size() > 1_000, "a grading loads some 3,000 library classes; the list has " + names.size());
    List<String> strangers = names.stream().filter(n -> !entries.contains(n.replace('.', '/') + ".class")).toList();
    assertEquals(List.of(), strangers.subList(0, Math.min(10, strangers.size())),
        strangers.size() + " classes of the archive's list come from no library of " + EXERCISE);
  }

  @Test
  @DisplayName("asked again, the kit uses the archive it made, without making it anew")
  void itIsMadeOnce() throws IOException {
    long made = Files.getLastModifiedTime(archive.file()).toMillis();
    ClassArchive again = ClassArchive.of(kit, exercise).orElseThrow();
    assertEquals(archive.file(), again.file());
    assertEquals(made, Files.getLastModifiedTime(again.file()).toMillis(), "the archive was made again");
  }

  @Test
  @DisplayName("a grading JVM with the archive loads BlockHound's, Vert.x's and JUnit's classes from it, and replays BlockHound's rewrites")
  void aGradingJvmLoadsItsLibrariesFromTheArchive() throws Exception {
    Path loaded = work.resolve("loaded.txt");
    Path tests = Files.createDirectories(work.resolve("no-tests"));
    List<String> command = new ArrayList<>(List.of(exercise.launcher().toString()));
    command.addAll(GradingJvm.flags());
    command.addAll(archive.options());
    command.addAll(List.of("-D" + GradingJvm.PREWARM + "=true", "-Xlog:class+load=info:file=" + loaded + ":none",
        "-cp", String.join(File.pathSeparator, libraries.stream().map(Path::toString).toList()), GradingJvm.RUNNER));
    command.addAll(new GradingJvm.Arguments(GradingJvm.Mode.WAIT_FOR_GO, tests, work.resolve("report.json"),
        EXERCISE, "class archive").toList());
    Process jvm = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(work.resolve("output.log").toFile()).start();
    try (OutputStream in = jvm.getOutputStream()) {
      in.write((VerdictFormat.keyLine(VerdictFormat.newKey()) + "\n").getBytes(StandardCharsets.UTF_8));
    }
    // Warmed up, it reads the end of its input instead of "go", and exits.
    if (!jvm.waitFor(120, TimeUnit.SECONDS)) {
      jvm.destroyForcibly();
      fail("the grading JVM did not get ready in 120 s: " + Files.readString(work.resolve("output.log")));
    }
    assertEquals(0, jvm.exitValue(), Files.readString(work.resolve("output.log")));
    Map<String, String> sourceOf = new HashMap<>();
    for (String line : Files.readAllLines(loaded)) {
      int at = line.indexOf(" source: ");
      if (at > 0) {
        sourceOf.put(line.substring(0, at), line.substring(at + " source: ".length()));
      }
    }
    for (String name : List.of("reactor.blockhound.shaded.net.bytebuddy.ByteBuddy", "io.vertx.core.Vertx",
        "io.vertx.ext.web.Router", "org.junit.platform.launcher.core.LauncherFactory")) {
      // "(top)": the archive is a layer on top of the JDK's own.
      assertEquals("shared objects file (top)", sourceOf.get(name), name + " did not come from the kit's archive");
    }    // BlockHound's rewrites of JDK classes (Thread, Object, the file streams...) came from the file beside the archive.
    String output = Files.readString(work.resolve("output.log"));
    Matcher replay = Pattern.compile("replayed BlockHound's answers for (\\d+) classes \\((\\d+) rewritten\\) from "
        + "the kit's file, asked it for (\\d+)").matcher(output);
    assertTrue(replay.find(), "the grading JVM did not say that it replayed BlockHound's rewrites:\n" + output);
    int replayed = Integer.parseInt(replay.group(1));
    int rewritten = Integer.parseInt(replay.group(2));
    int asked = Integer.parseInt(replay.group(3));
    assertTrue(rewritten >= 10, "BlockHound rewrites some 30 classes as it installs; " + rewritten + " came from the file");
    assertTrue(replayed > 5 * asked, "a JVM that warms up as the file's maker did should find most classes in it: "
        + replayed + " found, " + asked + " not");
  }
}
