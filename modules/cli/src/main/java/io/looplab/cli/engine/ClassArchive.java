package io.looplab.cli.engine;

import io.looplab.grader.internal.runner.ArchivedClasses;
import io.looplab.grader.internal.runner.GradingJvm;
import io.looplab.grader.internal.settings.Settings;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.jar.JarFile;

/**
 * A class-data-sharing archive of the library classes a grading JVM loads, made once per JDK and class path in
 * {@code target/lab/class-archives} and mapped by every grading JVM after it.
 *
 * <p>Why: a grading JVM spends about 1.9 s of CPU getting ready, and some 0.8 s of it goes to reading and verifying
 * 3,000 library classes (BlockHound's shaded Byte Buddy alone is 1,260) that are the same in every grading. Mapped
 * from an archive they load in about 60 ms: a grading of 01 took 3.6-3.7 s of user CPU with it against 4.3-4.5 s
 * without, on a quiet machine.
 *
 * <p>How: BlockHound appends a jar to the boot class path as it installs, and from then on the JVM (17 to 25) loads
 * no application class from an archive. So the grading JVM loads the archived classes first, by name, before it
 * installs the guard ({@code ArchivedClasses}, told the list by {@link Settings#ARCHIVED_CLASSES}). The archive is a
 * dynamic one, on top of the JDK's own, made by a JVM that loads the same list and ends. It holds library classes
 * only: the list comes from a JVM that runs the grader's own warm-up on the libraries alone,
 * and the class path puts the libraries first (an archive requires its class path to begin the JVM's), so the
 * learner's classes can never come from it, nor stand in for a library's.
 *
 * <p>Beside it, {@code blockhound-rewrites.bin}: what BlockHound's install made of the classes it rewrites, written
 * by a JVM that maps the new archive and warms up as a grading JVM does (RememberedRewrites in the grader). A grading
 * JVM gets those rewrites back instead of making them again: about 0.2 to 0.3 s less CPU each (measured on 01).
 *
 * <p>It is an optimisation and nothing more: when it cannot be made (a JDK without class data sharing, no room, a
 * step that fails or runs out of time), gradings run without it, and the reason is in {@code why-not.txt} beside it.
 */
public final class ClassArchive {

  /** Each step (the warm-up that lists the classes, the dump, the check) on a crowded machine: seconds, not this. */
  private static final long STEP_LIMIT_SECONDS = 120;
  private static final String ARCHIVE = "classes.jsa";
  private static final String PRELOAD = "preload.txt";
  private static final Path ARCHIVES = Path.of("target", "lab", "class-archives");
  private static final String REWRITES = "blockhound-rewrites.bin";
  private static final String MADE_FOR = "made-for.txt";
  private static final String WHY_NOT = "why-not.txt";

  /** One maker at a time per archive in this process; other processes race harmlessly (atomic moves). */
  private static final ConcurrentHashMap<Path, Object> making = new ConcurrentHashMap<>();
  /** What this process could not make an archive for: not tried again in it (another process may). */
  private static final Set<String> failed = ConcurrentHashMap.newKeySet();

  private final Path archive;
  private final Path preload;
  private final Path rewrites;

  private ClassArchive(Path dir) {
    this.archive = dir.resolve(ARCHIVE);
    this.preload = dir.resolve(PRELOAD);
    this.rewrites = dir.resolve(REWRITES);
  }

  /** The archive for grading {@code exercise} on its JDK, made now if this is the first time. */
  public static Optional<ClassArchive> of(Kit kit, Exercise exercise) throws IOException {
    List<Path> libraries = Libraries.of(kit, exercise);
    return of(home(kit, libraries), exercise.launcher(), libraries);
  }

  /**
   * Where the archives of these libraries live: in the kit that built the grader's jar among them, else in this one.
   * An archive depends on the JDK and the jars alone, so a kit that borrows another's class path (the self-test's
   * small kits, a handout it grades in place) shares the lender's archives instead of making its own (about 9 s of
   * CPU each).
   */
  static Path home(Kit kit, List<Path> libraries) {
    for (Path library : libraries) {
      Path target = library.toAbsolutePath().getParent();
      if (target != null && target.endsWith(Path.of("modules", "grader", "target"))) {
        Path lender = target.getParent().getParent().getParent();
        if (Files.isRegularFile(lender.resolve("lab")) && Files.isRegularFile(lender.resolve("pom.xml"))) {
          return lender.resolve(ARCHIVES);
        }
      }
    }
    return kit.root().resolve(ARCHIVES);
  }

  static Optional<ClassArchive> of(Path home, Path launcher, List<Path> libraries) {
    if (libraries.isEmpty() || !libraries.stream().allMatch(ClassArchive::isJar)) {
      return Optional.empty(); // an archive's class path may hold jars only
    }
    Path dir;
    String madeFor;
    try {
      dir = home.resolve(hash(where(launcher, libraries)));
      madeFor = describe(launcher, libraries);
    } catch (IOException e) {
      return Optional.empty(); // a library gone missing: the grading says so itself
    }
    ClassArchive made = new ClassArchive(dir);
    if (made.isFor(madeFor)) {
      return Optional.of(made);
    }
    synchronized (making.computeIfAbsent(dir, d -> new Object())) {
      if (!made.isFor(madeFor) && !failed.contains(madeFor)) {
        make(dir, launcher, libraries, madeFor);
      }
      if (!made.isFor(madeFor)) {
        failed.add(madeFor);
        return Optional.empty();
      }
    }
    return Optional.of(made);
  }

  /** The grading JVM's options that map the archive, load its classes ahead and replay BlockHound's rewrites. */
  public List<String> options() {
    return List.of("-XX:SharedArchiveFile=" + archive, "-D" + Settings.ARCHIVED_CLASSES.name() + "=" + preload,
        "-D" + Settings.BLOCKHOUND_REWRITES.name() + "=" + rewrites);
  }

  /** The file that holds the archive. */
  public Path file() {
    return archive;
  }

  /** The folder of the archive and its files: what a sandboxed grading JVM must be able to read. */
  public Path dir() {
    return archive.getParent();
  }

  /** The library classes it holds, one binary name a line: what the grading JVM loads ahead. */
  public Path classList() {
    return preload;
  }

  /** Whether it is there, whole, and made for these libraries, this JDK and these flags. */
  private boolean isFor(String madeFor) {
    try {
      return Files.isRegularFile(archive) && Files.isRegularFile(preload) && Files.isRegularFile(rewrites)
          && madeFor.equals(Files.readString(archive.resolveSibling(MADE_FOR)));
    } catch (IOException e) {
      return false;
    }
  }

  private static boolean isJar(Path library) {
    String name = library.getFileName().toString();
    return name.endsWith(".jar") && !library.toString().contains(java.io.File.pathSeparator);
  }

  /** Which JDK and which libraries (their paths): one folder for each, so a rebuilt jar replaces its archive. */
  private static String where(Path launcher, List<Path> libraries) throws IOException {
    StringBuilder what = new StringBuilder(launcher.toRealPath().toString()).append('\n');
    libraries.forEach(library -> what.append(library.toAbsolutePath()).append('\n'));
    return what.toString();
  }

  /**
   * What the archive depends on: the JDK (its real folder and its release file), the grading JVM's flags, and each
   * library's path, size and time. A change to any of them makes it anew; the JVM checks the same again itself.
   */
  private static String describe(Path launcher, List<Path> libraries) throws IOException {
    StringBuilder what = new StringBuilder();
    Path jdk = launcher.toRealPath().getParent().getParent();
    what.append(jdk).append('\n');
    Path release = jdk.resolve("release");
    if (Files.isRegularFile(release)) {
      what.append(Files.readString(release));
    }
    what.append(GradingJvm.flags()).append('\n');
    for (Path library : libraries) {
      what.append(library.toAbsolutePath()).append(' ').append(Files.size(library)).append(' ')
          .append(Files.getLastModifiedTime(library).toMillis()).append('\n');
    }
    return what.toString();
  }

  private static String hash(String text) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 10);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Lists the classes, dumps them, checks that the JVM maps the dump, then moves it into place whole. */
  private static void make(Path dir, Path launcher, List<Path> libraries, String madeFor) {
    Path work = null;
    try {
      Files.createDirectories(dir.getParent());
      work = Files.createTempDirectory(dir.getParent(), "making-");
      String problem = makeIn(work, launcher, libraries);
      if (problem == null) {
        Files.createDirectories(dir);
        Files.writeString(work.resolve(MADE_FOR), madeFor);
        Files.deleteIfExists(dir.resolve(WHY_NOT));
        // Each file into place whole (a JVM that maps the archive it replaces keeps the old one), what it was made
        // for last: until then, the folder is not taken for these libraries.
        for (String file : List.of(PRELOAD, ARCHIVE, REWRITES, MADE_FOR)) {
          Files.move(work.resolve(file), dir.resolve(file), StandardCopyOption.ATOMIC_MOVE,
              StandardCopyOption.REPLACE_EXISTING);
        }
      } else {
        sayWhyNot(dir, problem);
      }
    } catch (IOException | RuntimeException e) {
      sayWhyNot(dir, "making it failed: " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      if (work != null) {
        try {
          FileTrees.delete(work);
        } catch (IOException e) {
          // a leftover folder in target/: harmless
        }
      }
    }
  }

  /** No archive: gradings load their classes as they always did; the reason is kept for whoever looks. */
  private static void sayWhyNot(Path dir, String problem) {
    try {
      Files.createDirectories(dir);
      Files.writeString(dir.resolve(WHY_NOT), problem + "\n");
    } catch (IOException e) {
      // nowhere to say it: the gradings are the same either way
    }
  }

  /**
   * Null when {@code work} holds the archive, its list and BlockHound's rewrites; else what went wrong, with the log
   * to read.
   */
  private static String makeIn(Path work, Path launcher, List<Path> libraries)
      throws IOException, InterruptedException {
    Path loaded = work.resolve("loaded.txt");
    if (loaded.toString().matches(".*[:,=].*")) {
      return "-Xlog cannot name the file " + loaded;
    }
    // The listing and the last step are grading JVMs that warm up with no tests, then read no go and exit.
    Path noTests = Files.createDirectories(work.resolve("no-tests"));
    GradingJvm.Arguments warmUpOnly = new GradingJvm.Arguments(GradingJvm.Mode.WAIT_FOR_GO, noTests,
        work.resolve("report.json"), "class-archive", "class archive");
    List<String> warmUp = ForkedJvm.command(launcher, libraries, warmUpOnly,
        List.of("-D" + GradingJvm.PREWARM + "=true", "-Xlog:class+load=info:file=" + loaded + ":none"));
    // Its standard input ends after the key: warmed up, it reads no go and exits.
    String failed = step("listing the classes", warmUp, work.resolve("warm-up.log"));
    if (failed != null) {
      return failed;
    }
    Set<String> libraryClasses = new LinkedHashSet<>();
    // The warm-up's class path is the libraries alone, so a class from a jar is a library's, unless it is no entry of
    // one: then it was made at run time (Byte Buddy defines some with the jar's code source), not for an archive.
    Set<String> entries = new HashSet<>();
    for (Path library : libraries) {
      try (JarFile jar = new JarFile(library.toFile())) {
        jar.stream().forEach(e -> entries.add(e.getName()));
      }
    }
    for (String line : Files.readAllLines(loaded)) {
      int source = line.indexOf(" source: ");
      if (source < 0) {
        continue;
      }
      String name = line.substring(0, source);
      String from = line.substring(source + " source: ".length());
      if (from.startsWith("file:") && from.endsWith(".jar") && entries.contains(name.replace('.', '/') + ".class")) {
        libraryClasses.add(name);
      }
    }
    if (libraryClasses.isEmpty()) {
      return "the warm-up loaded no library class (see " + work.resolve("warm-up.log") + ")";
    }
    Files.write(work.resolve(PRELOAD), libraryClasses);
    // A JVM that loads the list and ends, dumping what it loaded on top of the JDK's own archive: half the CPU of a
    // whole archive of its own (3.5 s against 6.5 s, measured), and the JDK's classes stay the JDK's.
    String classpath = String.join(java.io.File.pathSeparator, libraries.stream().map(Path::toString).toList());
    failed = step("dumping the archive", java(launcher, "-XX:ArchiveClassesAtExit=" + work.resolve(ARCHIVE),
        "-D" + Settings.ARCHIVED_CLASSES.name() + "=" + work.resolve(PRELOAD), "-cp", classpath,
        ArchivedClasses.class.getName()), work.resolve("dump.log"));
    if (failed != null) {
      return failed;
    }
    // A grading JVM's start on the new archive, warm-up included, which writes down BlockHound's rewrites as it
    // installs (RememberedRewrites): grading JVMs then get them back instead of making them again. -Xshare:on fails
    // where the JVM would not map the archive; a grading JVM (-Xshare:auto) would go on without it.
    List<String> remember = ForkedJvm.command(launcher, libraries, warmUpOnly, List.of("-Xshare:on",
        "-XX:SharedArchiveFile=" + work.resolve(ARCHIVE), "-D" + Settings.ARCHIVED_CLASSES.name() + "="
            + work.resolve(PRELOAD), "-D" + GradingJvm.PREWARM + "=true",
        "-D" + Settings.BLOCKHOUND_REWRITES_RECORD.name() + "=" + work.resolve(REWRITES)));
    failed = step("mapping it and remembering BlockHound's rewrites", remember, work.resolve("rewrites.log"));
    if (failed == null && !Files.isRegularFile(work.resolve(REWRITES))) {
      return "the JVM that maps it wrote no " + REWRITES + " (see " + work.resolve("rewrites.log") + ")";
    }
    return failed;
  }

  /** {@code launcher} with the grading JVM's flags (those the archive is made for), then {@code rest}. */
  private static List<String> java(Path launcher, String... rest) {
    List<String> command = new ArrayList<>(List.of(launcher.toString()));
    command.addAll(GradingJvm.flags());
    command.addAll(List.of(rest));
    return command;
  }

  private static String step(String what, List<String> command, Path log) throws IOException, InterruptedException {
    ForkedJvm.Outcome outcome = ForkedJvm.run(command, log, STEP_LIMIT_SECONDS, left -> { });
    if (outcome.timedOut()) {
      return what + " ran out of " + STEP_LIMIT_SECONDS + " s";
    }
    if (outcome.exitCode() != 0) {
      List<String> lines = Files.exists(log) ? Files.readAllLines(log) : List.of();
      return what + " failed with exit status " + outcome.exitCode() + ": "
          + String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
    }
    return null;
  }
}
