package io.looplab.grader.internal.runner;

import io.looplab.grader.internal.guard.GuardSettings;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

/**
 * The JVM that runs one exercise's graded tests, defined once for both sides: the kit that starts it and
 * {@link GradingMain} inside it. Its flags are the root pom's {@code looplab.argLine}, which surefire uses too (Maven
 * writes them into {@code grading-jvm.properties}).
 */
public final class GradingJvm {

  /** The main class. */
  public static final String RUNNER = GradingMain.class.getName();

  /** The handshake of {@link Mode#WAIT_FOR_GO}: one line on standard input. */
  public static final String GO = "go";
  public static final String STOP = "stop";
  /**
   * Asked on standard input after {@link #GO}, when the time limit has struck: the JVM sends where the test's thread
   * is, with its verdict (see VerdictChannel#sendWhere), before the kit stops it.
   */
  public static final String WHERE = "where";

  /**
   * A system property: the JVM, started ahead of its grading, warms Vert.x up while it waits for "go". Only for a
   * JVM started ahead (the CLI's spares): one started for a grading at once would only delay it.
   */
  public static final String PREWARM = io.looplab.grader.internal.settings.Settings.PREWARM.name();

  private GradingJvm() {
  }

  /** What the JVM does. */
  public enum Mode {
    /** Run the tests at once. */
    RUN(null),
    /** Get ready (install the guard, load JUnit), then wait for {@link #GO} or {@link #STOP}. */
    WAIT_FOR_GO("--wait-for-go"),
    /** Only list the tests and their points. */
    PLAN_ONLY("--plan-only"),
    /**
     * Grade one job after another, each read as a line on standard input (see {@link Job}): for the kit's own
     * variants of one exercise, which are trusted, never for a learner's code (a JVM shared by several gradings
     * does not keep them apart the way a JVM each does). The positional arguments other than the id and title are
     * unused.
     */
    SERVE("--serve");

    final String flag;

    Mode(String flag) {
      this.flag = flag;
    }
  }

  /** The runner's arguments: where the compiled tests are, where to write the report, and what it is about. */
  public record Arguments(Mode mode, Path testClasses, Path reportFile, String exerciseId, String title) {

    public List<String> toList() {
      List<String> args = new ArrayList<>();
      if (mode.flag != null) {
        args.add(mode.flag);
      }
      args.addAll(List.of(testClasses.toString(), reportFile.toString(), exerciseId, title));
      return args;
    }

    /** The arguments as {@link GradingMain} received them, or an explanation of why they are wrong. */
    static Arguments parse(String[] args) {
      Mode mode = Mode.RUN;
      String[] rest = args;
      if (args.length > 0 && args[0].startsWith("--")) {
        mode = Arrays.stream(Mode.values()).filter(m -> args[0].equals(m.flag)).findFirst()
            .orElseThrow(() -> new IllegalArgumentException("unknown mode " + args[0]));
        rest = Arrays.copyOfRange(args, 1, args.length);
      }
      if (rest.length != 4) {
        throw new IllegalArgumentException("expected 4 arguments after the mode, got " + rest.length);
      }
      return new Arguments(mode, Path.of(rest[0]), Path.of(rest[1]), rest[2], rest[3]);
    }

    static String usage() {
      return "usage: " + RUNNER + " [--wait-for-go | --plan-only | --serve] <test-classes-dir> <report.json> <exercise-id> <title>";
    }
  }

  /**
   * One grading for a {@link Mode#SERVE} JVM: the learner's compiled classes, the compiled tests, where to write
   * the report, and the test methods to run (all when empty). It travels as one tab-separated line.
   */
  public record Job(Path classes, Path testClasses, Path reportFile, List<String> onlyTests) {

    private static final String PREFIX = "job\t";

    public String toLine() {
      return PREFIX + classes + "\t" + testClasses + "\t" + reportFile + "\t" + String.join(",", onlyTests);
    }

    /** The job on this line, or null for any other line (the end of the session). */
    static Job parse(String line) {
      if (line == null || !line.startsWith(PREFIX)) {
        return null;
      }
      String[] parts = line.substring(PREFIX.length()).split("\t", -1);
      List<String> only = parts[3].isBlank() ? List.of() : List.of(parts[3].split(","));
      return new Job(Path.of(parts[0]), Path.of(parts[1]), Path.of(parts[2]), only);
    }
  }

  /** The JVM flags: BlockHound redefines JDK classes and attaches its agent to this very JVM. */
  public static List<String> flags() {
    Properties p = new Properties();
    try (InputStream in = GradingJvm.class.getResourceAsStream("grading-jvm.properties")) {
      if (in == null) {
        throw new IllegalStateException("grading-jvm.properties is missing from the grader library's jar");
      }
      p.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    String flags = p.getProperty("flags", "");
    if (flags.contains("${")) {
      throw new IllegalStateException("grading-jvm.properties was not filled in by Maven: " + flags);
    }
    return Arrays.stream(flags.trim().split("\\s+")).filter(s -> !s.isEmpty()).toList();
  }

  /** The system property that turns stall detection off, for stepping through code in a debugger. */
  public static String debugOption() {
    return "-D" + GuardSettings.DEBUG + "=true";
  }

  /** The system property that runs only the named test methods. */
  public static String onlyTestsOption(List<String> methods) {
    return "-D" + GradingMain.ONLY_TESTS + "=" + String.join(",", methods);
  }
}
